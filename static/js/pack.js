// League pack page: fetch the PDF in the background, show a progress bar and the time it
// took, then save it. Without JavaScript the button is a plain link to the PDF.
(function () {
  var box = document.querySelector("[data-pack]");
  if (!box || !window.fetch || !window.URL || !URL.createObjectURL) return;
  var link = box.querySelector("[data-pack-link]");
  var progress = box.querySelector("[data-pack-progress]");
  var message = box.querySelector("[data-pack-message]");
  var last = parseFloat(box.getAttribute("data-last-seconds") || "");
  var busy = false;

  link.addEventListener("click", function (event) {
    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    var started = Date.now();
    var bar = progress.querySelector("progress");
    progress.hidden = false;
    link.setAttribute("aria-disabled", "true");
    var tick = function () {
      var seconds = (Date.now() - started) / 1000;
      var text = "Building the pack… " + seconds.toFixed(0) + " s";
      if (last > 0) {
        text += " (the last build took " + last.toFixed(1) + " s)";
        bar.max = last;
        bar.value = Math.min(seconds, last * 0.95);
      }
      message.textContent = text;
    };
    tick();
    var timer = setInterval(tick, 500);
    fetch(link.href, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok || response.headers.get("Content-Type") !== "application/pdf") {
          throw new Error("HTTP " + response.status);
        }
        var cached = response.headers.get("X-PDF-Cache") === "hit";
        var name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
        return response.blob().then(function (blob) {
          return [blob, cached, name ? name[1] : "league-pack.pdf"];
        });
      })
      .then(function (result) {
        var seconds = (Date.now() - started) / 1000;
        if (last > 0) { bar.value = bar.max; } else { bar.max = 1; bar.value = 1; }
        message.textContent = (result[1] ? "Ready (unchanged since the last build) in " : "Built in ")
          + seconds.toFixed(1) + " s. ";
        var save = document.createElement("a");
        save.href = URL.createObjectURL(result[0]);
        save.download = result[2];
        save.textContent = "Save " + result[2] + " again";
        message.appendChild(save);
        save.click();
      })
      .catch(function () {
        message.textContent = "The pack could not be built here; opening it directly…";
        window.location.href = link.href;
      })
      .finally(function () {
        clearInterval(timer);
        busy = false;
        link.removeAttribute("aria-disabled");
      });
  });
})();
