// kg view: draws the graph and shows details. Article text only ever goes through
// textContent (never innerHTML), so markup in an article is shown as text.
var network, nodes, edges;
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var progress = document.getElementById("kg-progress");
  nodes = new vis.DataSet(data.nodes);
  edges = new vis.DataSet(data.edges);
  window.kgStarted = performance.now();
  network = new vis.Network(document.getElementById("mynetwork"), {}, data.options);
  network.on("stabilizationProgress", function (p) {
    progress.textContent = "Laying out the graph… " + Math.round(100 * p.iterations / p.total) + "%";
  });
  network.once("stabilizationIterationsDone", function () {
    window.kgStabilized = performance.now();
    progress.hidden = true;
    if (data.freeze) { network.setOptions({ physics: false }); }
  });
  network.on("click", function (params) {
    if (params.nodes.length) { show(data.details.nodes[params.nodes[0]]); }
    else if (params.edges.length) { show(data.details.edges[params.edges[0]]); }
  });
  network.setData({ nodes: nodes, edges: edges });
  if (!data.nodes.length) { progress.textContent = "Nothing to show."; }

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    if (className) { node.className = className; }
    return node;
  }

  function show(detail) {
    var panel = document.getElementById("kg-panel");
    panel.replaceChildren();
    if (!detail) { return; }
    panel.appendChild(element("h2", detail.label));
    panel.appendChild(element("p", detail.kind, "kg-kind"));
    if (detail.iri) { panel.appendChild(element("p", detail.iri, "kg-iri")); }
    var list = element("dl");
    detail.facts.forEach(function (fact) {
      list.appendChild(element("dt", fact[0]));
      list.appendChild(element("dd", fact[1]));
    });
    panel.appendChild(list);
    if (detail.evidence.length) { panel.appendChild(element("h2", "Evidence")); }
    var sentences = element("ol");
    detail.evidence.forEach(function (item) {
      var entry = element("li");
      entry.appendChild(element("blockquote", item.text));
      entry.appendChild(element("cite", item.title));
      sentences.appendChild(entry);
    });
    panel.appendChild(sentences);
    if (detail.more > 0) { panel.appendChild(element("p", "… and " + detail.more + " more", "kg-more")); }
  }
})();
