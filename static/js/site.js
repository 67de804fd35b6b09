// Small progressive enhancements; every page works without them.
// (No inline scripts anywhere: the Content-Security-Policy forbids them.)
(function () {
  // Forms that destroy or remove something ask first: <form data-confirm="Remove X?">.
  document.addEventListener("submit", function (event) {
    var message = event.target.getAttribute && event.target.getAttribute("data-confirm");
    if (message && !window.confirm(message)) {
      event.preventDefault();
    }
  });
  // Read-only fields meant for copying select their text on focus.
  document.querySelectorAll("[data-select-on-focus]").forEach(function (input) {
    input.addEventListener("focus", function () { input.select(); });
  });
})();
