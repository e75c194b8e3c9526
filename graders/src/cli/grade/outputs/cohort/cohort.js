// Click a header to sort its table by that column (numbers as numbers), again to reverse.
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("thead th").forEach(function (th, column) {
    th.addEventListener("click", function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var descending = th.classList.contains("asc");
      table.querySelectorAll("thead th").forEach(function (h) {
        h.classList.remove("asc", "desc");
      });
      th.classList.add(descending ? "desc" : "asc");
      var key = function (row) {
        var cell = row.cells[column];
        var text = cell ? cell.textContent.trim() : "";
        var number = parseFloat(text);
        return isNaN(number) ? text.toLowerCase() : number;
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var order = typeof x === typeof y ? (x > y) - (y > x) : (typeof x === "number" ? -1 : 1);
        return descending ? -order : order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
// Says, for a headless browser's check, that the script ran to its end.
document.body.setAttribute("data-sortable-tables", String(document.querySelectorAll("table.sortable").length));
