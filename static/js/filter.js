// Live filtering of the skill list as you type; the server-side ?q= filter works without it.
(function () {
  var input = document.querySelector("[data-filter-target]");
  if (!input) return;
  var entries = document.querySelectorAll(input.getAttribute("data-filter-target"));
  input.addEventListener("input", function () {
    var needle = input.value.trim().toLowerCase();
    entries.forEach(function (entry) {
      entry.hidden = needle !== "" && entry.getAttribute("data-text").indexOf(needle) === -1;
    });
    document.querySelectorAll("[data-category]").forEach(function (section) {
      section.hidden = section.querySelectorAll(".skill-entry:not([hidden])").length === 0;
    });
  });
})();
