// League pack page: while a build runs, poll its progress (teams rendered out of the total)
// and offer the PDF when it is ready, or say why it failed. Without JavaScript the page
// shows the progress when loaded and a Refresh link.
(function () {
  var box = document.querySelector("[data-pack]");
  if (!box || !window.fetch) return;
  var progress = box.querySelector("[data-pack-progress]");
  var bar = progress.querySelector("progress");
  var message = box.querySelector("[data-pack-message]");
  var ready = box.querySelector("[data-pack-ready]");
  var failure = box.querySelector("[data-pack-error]");
  var build = box.querySelector("[data-pack-build]");

  function show(status) {
    var job = status.job;
    if (status.ready) {
      progress.hidden = true;
      ready.hidden = false;
      if (build) build.hidden = true;
      return false;
    }
    if (job && job.active) {
      progress.hidden = false;
      bar.max = job.total || 1;
      bar.value = job.done;
      message.textContent = job.state === "queued" ? "Waiting for a worker…"
        : "Rendered " + job.done + " of " + job.total + " teams…"
          + (job.state === "retrying" ? " (an attempt failed, trying again: " + job.error + ")" : "");
      return true;
    }
    progress.hidden = true;
    if (job && job.state === "failed") {
      failure.hidden = false;
      failure.textContent = "The last build failed: " + job.error;
    }
    if (build) build.hidden = false;
    return false;
  }

  function poll() {
    fetch(box.getAttribute("data-status-url"), { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (status) { if (show(status)) setTimeout(poll, 700); })
      .catch(function () { setTimeout(poll, 3000); });
  }

  if (build) {
    build.addEventListener("submit", function (event) {
      event.preventDefault();
      build.hidden = true;
      failure.hidden = true;
      progress.hidden = false;
      message.textContent = "Starting…";
      fetch(build.action, { method: "POST", body: new FormData(build), credentials: "same-origin" })
        .then(function () { poll(); })
        .catch(function () { build.submit(); });
    });
  }
  if (box.hasAttribute("data-running")) poll();
})();
