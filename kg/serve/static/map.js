// The map page: country outlines (world-atlas TopoJSON) and clustered markers, offline.
// Data comes from the JSON block #map-data; popups are built with textContent only,
// so a name can never become markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("map-data").textContent);
  var element = document.getElementById("map");
  var map = L.map(element, { worldCopyJump: true, attributionControl: false, minZoom: 1, maxZoom: 12 })
    .setView([30, 10], 2);
  L.Icon.Default.imagePath = "/static/vendor/leaflet/images/";

  function popup(item) {
    var box = document.createElement("div");
    var link = document.createElement("a");
    link.href = item.href;
    link.textContent = item.label;
    var kind = document.createElement("div");
    kind.className = "muted";
    kind.textContent = item.kind + " · " + item.detail;
    box.appendChild(link);
    box.appendChild(kind);
    return box;
  }

  var layers = { place: L.markerClusterGroup(), event: L.markerClusterGroup() };
  var bounds = [];
  data.items.forEach(function (item) {
    var lat = parseFloat(item.lat), lng = parseFloat(item.lng);
    if (!isFinite(lat) || !isFinite(lng)) { return; }
    var marker = item.kind === "event"
      ? L.circleMarker([lat, lng], { radius: 6, color: "#e15759", weight: 2 })
      : L.marker([lat, lng], { title: item.label, alt: item.label });
    marker.bindPopup(popup(item));
    layers[item.kind === "event" ? "event" : "place"].addLayer(marker);
    bounds.push([lat, lng]);
  });
  layers.place.addTo(map);
  layers.event.addTo(map);
  if (bounds.length) { map.fitBounds(bounds, { maxZoom: 6, padding: [20, 20] }); }
  element.setAttribute("data-markers", String(bounds.length));

  [["show-events", "event"], ["show-places", "place"]].forEach(function (pair) {
    var box = document.getElementById(pair[0]);
    if (!box) { return; }
    box.addEventListener("change", function () {
      if (box.checked) { layers[pair[1]].addTo(map); } else { map.removeLayer(layers[pair[1]]); }
    });
  });

  // Rings that cross the antimeridian (Russia, Fiji) would be drawn across the whole map:
  // move their western points east by 360 degrees so that each ring stays in one piece.
  function unwrap(geometry) {
    if (!geometry) { return; }
    var polygons = geometry.type === "Polygon" ? [geometry.coordinates]
      : geometry.type === "MultiPolygon" ? geometry.coordinates : [];
    polygons.forEach(function (rings) {
      rings.forEach(function (ring) {
        var lons = ring.map(function (point) { return point[0]; });
        if (Math.max.apply(null, lons) - Math.min.apply(null, lons) > 270) {
          ring.forEach(function (point) { if (point[0] < 0) { point[0] += 360; } });
        }
      });
    });
  }

  fetch(data.outlines).then(function (response) { return response.json(); })
    .then(function (world) {
      var countries = topojson.feature(world, world.objects.countries);
      countries.features.forEach(function (feature) { unwrap(feature.geometry); });
      L.geoJSON(countries, {
        style: { color: "#8a99a8", weight: 0.7, fillColor: "#eef1f4", fillOpacity: 1 },
        interactive: false
      }).addTo(map).bringToBack();
      element.setAttribute("data-outlines", String(countries.features.length));
    });
}());
