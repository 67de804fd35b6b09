// The time page in the reader's local time: shown times become local, and the offer
// forms send the browser's offset so the times typed are read as local (without this
// script everything stays UTC, as the page says).
(function () {
  "use strict";
  var offset = new Date().getTimezoneOffset();
  document.querySelectorAll("time[datetime]").forEach(function (el) {
    var moment = new Date(el.getAttribute("datetime"));
    if (!isNaN(moment)) {
      el.textContent = moment.toLocaleString(document.documentElement.lang || undefined, {
        dateStyle: "medium",
        timeStyle: "short",
      });
    }
  });
  document.querySelectorAll('input[name="utc_offset"]').forEach(function (input) {
    input.value = String(offset);
  });
  document.querySelectorAll("form.offer-times input[type=datetime-local]").forEach(function (input) {
    if (!input.value) return;
    var utc = new Date(input.value + "Z");
    var local = new Date(utc.getTime() - offset * 60000);
    input.value = local.toISOString().slice(0, 16);
  });
  var note = document.querySelector("[data-local-note]");
  if (note && note.dataset.localText) note.textContent = note.dataset.localText;
})();
