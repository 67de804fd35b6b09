// The re-draft page: what the choice costs and what the budget leaves, as the coach
// ticks players and changes counts. The server works it out again on submission.
(function () {
  var form = document.querySelector("form[data-redraft]");
  var spentOut = document.querySelector("[data-redraft-spent]");
  var leftOut = document.querySelector("[data-redraft-left]");
  if (!form || !spentOut || !leftOut) return;
  var format = new Intl.NumberFormat(document.documentElement.lang || undefined);
  function number(value) {
    var parsed = parseInt(value, 10);
    return isNaN(parsed) || parsed < 0 ? 0 : parsed;
  }
  function count(id) {
    var input = document.getElementById(id);
    return input ? number(input.value) : 0;
  }
  function update() {
    var spent = 0;
    form.querySelectorAll("input[type=checkbox][data-cost]:checked").forEach(function (box) {
      spent += number(box.getAttribute("data-cost"));
    });
    form.querySelectorAll("input[type=number][data-cost]").forEach(function (input) {
      spent += number(input.value) * number(input.getAttribute("data-cost"));
    });
    spent += count("rerolls") * number(form.getAttribute("data-reroll"));
    spent += count("assistant_coaches") * number(form.getAttribute("data-assistant-coach"));
    spent += count("cheerleaders") * number(form.getAttribute("data-cheerleader"));
    var apothecary = document.getElementById("apothecary");
    if (apothecary && apothecary.checked) spent += number(form.getAttribute("data-apothecary"));
    spentOut.textContent = format.format(spent);
    leftOut.textContent = format.format(number(form.getAttribute("data-budget")) - spent);
  }
  form.addEventListener("input", update);
  form.addEventListener("change", update);
})();
