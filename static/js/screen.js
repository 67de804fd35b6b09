// The big screen (templates/tournament/screen.html): its panels take turns, one every
// SECONDS. Without this script every panel shows at once; the page reloads itself (a meta
// refresh), so new results and pairings come in without anybody touching the projector.
(function () {
  "use strict";
  var SECONDS = 15;
  var panels = Array.prototype.slice.call(document.querySelectorAll(".panel"));
  if (panels.length < 2) {
    return;
  }
  var current = 0;
  function show(index) {
    panels.forEach(function (panel, at) {
      panel.classList.toggle("current", at === index);
    });
  }
  document.body.classList.add("cycling");
  show(current);
  window.setInterval(function () {
    current = (current + 1) % panels.length;
    show(current);
  }, SECONDS * 1000);
})();
