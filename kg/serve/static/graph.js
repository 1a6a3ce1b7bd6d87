// The graph page: an entity and the entities named in the same articles, ranked by shared
// articles and drawn a few at a time around it (SVG, no library). "+" on a node draws its own
// neighbours around it, in place; "more" adds the next ones around the node last expanded.
// Every name is an SVG link to its page; all text is set with textContent.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var svg = document.getElementById("graph");
  var status = document.getElementById("graph-status");
  var edges = svg.appendChild(document.createElementNS(SVG, "g"));
  var nodes = svg.appendChild(document.createElementNS(SVG, "g"));
  var COLORS = { Person: "#4e79a7", Organization: "#f28e2b", Place: "#59a14f", Event: "#e15759" };
  var shown = {};   // iri -> {x, y, element, angle, loaded, total, depth}
  var lines = {};   // "a|b" -> true
  var current = null;

  function element(tag, attributes, parent) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  function draw(item, x, y, angle, depth) {
    var group = element("g", { "class": "graph-node", "data-iri": item.iri,
                               transform: "translate(" + x + "," + y + ")" }, nodes);
    element("circle", { r: depth === 0 ? 10 : 7, fill: COLORS[item.kind] || "#76b7b2" }, group);
    var link = element("a", { href: item.href, "class": "graph-link" }, group);
    var label = element("text", { x: 12, y: 4 }, link);
    label.textContent = item.label;
    var plus = element("g", { "class": "graph-expand", role: "button", tabindex: "0",
                              transform: "translate(-16,-14)" }, group);
    element("circle", { r: 6 }, plus);
    var sign = element("text", { x: -3.5, y: 3.5 }, plus);
    sign.textContent = "+";
    var title = element("title", {}, plus);
    title.textContent = "draw the neighbours of " + item.label;
    shown[item.iri] = { x: x, y: y, angle: angle, loaded: 0, total: null, depth: depth,
                        element: group, item: item };
    plus.addEventListener("click", function () { expand(item.iri); });
    plus.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); expand(item.iri); }
    });
    return shown[item.iri];
  }

  function connect(a, b, shared) {
    var key = a < b ? a + "|" + b : b + "|" + a;
    if (lines[key]) { return; }
    lines[key] = true;
    var line = element("line", { x1: shown[a].x, y1: shown[a].y, x2: shown[b].x, y2: shown[b].y,
                                 "stroke-width": Math.min(1 + Math.log(shared + 1), 6),
                                 "class": "graph-edge" }, edges);
    var title = element("title", {}, line);
    title.textContent = shared + " article" + (shared === 1 ? "" : "s") + " name both";
  }

  function place(parent, index, count) {
    // the root's neighbours on a circle; another node's in a fan pointing away from the root
    if (parent.depth === 0) {
      var step = 2 * Math.PI / Math.max(count, 1);
      var ring = 250 + 60 * Math.floor(index / 16);
      var angle = index * step + (index >= 16 ? step / 2 : 0);
      return [ring * Math.cos(angle), ring * Math.sin(angle) * 0.8, angle];
    }
    var spread = Math.PI * 0.9, start = parent.angle - spread / 2;
    var a = count > 1 ? start + spread * index / (count - 1) : parent.angle;
    var radius = 150 + 40 * (index % 2);
    return [parent.x + radius * Math.cos(a), parent.y + radius * Math.sin(a) * 0.8, a];
  }

  function expand(iri, limit) {
    var parent = shown[iri];
    if (!parent || (parent.total !== null && parent.loaded >= parent.total)) { return; }
    current = iri;
    var url = data.neighbours + "?" + new URLSearchParams(
      { iri: iri, offset: String(parent.loaded), limit: String(limit || data.more) });
    status.textContent = "…";
    fetch(url).then(function (response) { return response.json(); }).then(function (found) {
      parent.total = found.total;
      var fresh = found.items.filter(function (n) { return !shown[n.iri]; });
      var base = parent.drawnChildren || 0;
      found.items.forEach(function (n) {
        if (!shown[n.iri]) {
          var count = parent.depth === 0 ? Math.min(found.total, 16) : base + fresh.length;
          var at = place(parent, base, count);
          draw(n, at[0], at[1], at[2], parent.depth + 1);
          base += 1;
        }
        connect(iri, n.iri, n.shared);
      });
      parent.drawnChildren = base;
      parent.loaded += found.items.length;
      parent.element.setAttribute("data-loaded", String(parent.loaded));
      svg.setAttribute("data-nodes", String(Object.keys(shown).length));
      status.textContent = shown[iri].item.label + ": " + parent.loaded + " of " + found.total +
        " neighbours drawn";
      fit();
    });
  }

  function fit() {
    var xs = [], ys = [];
    Object.keys(shown).forEach(function (k) { xs.push(shown[k].x); ys.push(shown[k].y); });
    var minX = Math.min.apply(null, xs) - 60, maxX = Math.max.apply(null, xs) + 220;
    var minY = Math.min.apply(null, ys) - 40, maxY = Math.max.apply(null, ys) + 40;
    svg.setAttribute("viewBox", [minX, minY, Math.max(maxX - minX, 400), Math.max(maxY - minY, 300)].join(" "));
  }

  draw(data.root, 0, 0, 0, 0);
  expand(data.root.iri, data.first);
  document.getElementById("graph-more").addEventListener("click", function () {
    expand(current || data.root.iri);
  });
}());
