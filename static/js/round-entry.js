// The organiser's round entry (templates/tournament/enter_results.html): each side's
// points for the match and its bonus points, shown as the numbers are typed. The rules
// are the league's (the page's #round-scoring data, from league.rules.competitions):
// points for a win, a draw and a loss, and each bonus rule met (touchdowns scored at
// least, casualties caused at least, a loss by at most that many touchdowns).
(function () {
  "use strict";
  var form = document.getElementById("round-entry");
  var data = document.getElementById("round-scoring");
  if (!form || !data) {
    return;
  }
  var scoring = JSON.parse(data.textContent);
  var text = form.getAttribute("data-points-text");

  function number(row, side, stat) {
    var box = row.querySelector('input[data-side="' + side + '"][data-stat="' + stat + '"]');
    var value = box ? box.value.trim() : "";
    return /^[0-9]+$/.test(value) ? parseInt(value, 10) : null;
  }

  function bonus(own, other) {
    var earned = 0;
    scoring.bonus.forEach(function (rule) {
      var met;
      if (rule.kind === "touchdowns") {
        met = own.td >= rule.threshold;
      } else if (rule.kind === "casualties") {
        met = own.cas >= rule.threshold;
      } else {
        met = other.td - own.td > 0 && other.td - own.td <= rule.threshold;
      }
      earned += met ? rule.points : 0;
    });
    return earned;
  }

  function update(row) {
    var sides = {
      home: { td: number(row, "home", "td"), cas: number(row, "home", "cas") || 0 },
      away: { td: number(row, "away", "td"), cas: number(row, "away", "cas") || 0 }
    };
    ["home", "away"].forEach(function (side) {
      var other = side === "home" ? "away" : "home";
      var out = row.querySelector('[data-points="' + side + '"] output');
      if (!out) {
        return;
      }
      if (sides.home.td === null || sides.away.td === null) {
        out.textContent = "";
        return;
      }
      var own = sides[side], them = sides[other];
      var result = own.td > them.td ? "won" : own.td === them.td ? "drawn" : "lost";
      out.textContent = text
        .replace("{points}", String(scoring.points[result]))
        .replace("{bonus}", String(bonus(own, them)));
    });
  }

  Array.prototype.forEach.call(form.querySelectorAll(".entry-row"), function (row) {
    update(row); // a page shown again with its errors: the points of what was typed
    row.addEventListener("input", function () { update(row); });
  });
})();
