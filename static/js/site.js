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
  // Phones show the roster as cards, each cell labelled by its data-label. The characteristic
  // cells (their markup is shared with other pages) take theirs from the column's header here.
  document.querySelectorAll("table thead th.stat").forEach(function (head) {
    var column = head.cellIndex;
    head.closest("table").querySelectorAll("tbody tr").forEach(function (row) {
      var cell = row.cells[column];
      if (cell && !cell.hasAttribute("data-label")) {
        cell.setAttribute("data-label", head.textContent.trim());
      }
    });
  });
  // Read-only fields meant for copying select their text on focus.
  document.querySelectorAll("[data-select-on-focus]").forEach(function (input) {
    input.addEventListener("focus", function () { input.select(); });
  });
})();
