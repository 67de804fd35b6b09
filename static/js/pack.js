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
  var numbers = window.Intl ? new Intl.NumberFormat(document.documentElement.lang || undefined) : null;

  // The texts come from the page (data-text-*), in its language: {name} marks a value.
  function text(name, values) {
    var pattern = box.getAttribute("data-text-" + name) || "";
    return pattern.replace(/\{(\w+)\}/g, function (whole, key) {
      if (!values || !(key in values)) return whole;
      var value = values[key];
      return typeof value === "number" && numbers ? numbers.format(value) : String(value);
    });
  }

  function show(status) {
    var job = status.job;
    if (status.error) {
      // The job queue does not answer (503): say so; the build form stays for a retry.
      progress.hidden = true;
      failure.hidden = false;
      failure.textContent = status.error.message;
      if (build) build.hidden = false;
      return false;
    }
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
      message.textContent = job.state === "queued" ? text("queued")
        : text("rendered", { done: job.done, total: job.total })
          + (job.state === "retrying" ? " " + text("retrying", { error: job.error }) : "");
      return true;
    }
    progress.hidden = true;
    if (job && job.state === "failed") {
      failure.hidden = false;
      failure.textContent = text("failed", { error: job.error });
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
      message.textContent = text("starting");
      fetch(build.action, { method: "POST", body: new FormData(build), credentials: "same-origin" })
        .then(function () { poll(); })
        .catch(function () { build.submit(); });
    });
  }
  if (box.hasAttribute("data-running")) poll();
})();
