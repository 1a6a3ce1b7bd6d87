// The map page: country outlines (world-atlas TopoJSON), cities as clustered markers and
// countries as circles at the centre of their outline, each sized by its number of articles;
// a click lists the articles (fetched from /map/place). Data comes from the JSON block
// #map-data; popups are built with textContent only, so a name can never become markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("map-data").textContent);
  var element = document.getElementById("map");
  var map = L.map(element, { worldCopyJump: true, attributionControl: false, minZoom: 1, maxZoom: 12 })
    .setView([30, 10], 2);
  L.Icon.Default.imagePath = "/static/vendor/leaflet/images/";

  function text(tag, value, className) {
    var node = document.createElement(tag);
    node.textContent = value;
    if (className) { node.className = className; }
    return node;
  }

  function popup(item) {
    var box = document.createElement("div");
    box.className = "map-popup";
    var link = text("a", item.label);
    link.href = item.href;
    box.appendChild(link);
    box.appendChild(text("div", item.kind + " · " + item.detail, "muted"));
    if (item.list) {
      var list = document.createElement("ol");
      list.className = "place-articles";
      box.appendChild(list);
      fetch(item.list).then(function (response) { return response.json(); })
        .then(function (found) {
          (found.articles || []).slice(0, 15).forEach(function (article) {
            var entry = document.createElement("li");
            var to = text("a", article.title);
            to.href = article.href;
            entry.appendChild(to);
            if (article.date) { entry.appendChild(text("span", " " + article.date, "muted")); }
            list.appendChild(entry);
          });
          if ((found.articles || []).length > 15) {
            var more = text("a", "all on its page");
            more.href = item.href;
            box.appendChild(more);
          }
          box.setAttribute("data-loaded", String((found.articles || []).length));
        });
    }
    return box;
  }

  function radius(count) { return 4 + 3 * Math.sqrt(Math.max(count, 1)); }

  var layers = { city: L.markerClusterGroup(), event: L.markerClusterGroup(), country: L.layerGroup() };
  var bounds = [];
  var countries = [];
  data.items.forEach(function (item) {
    if (item.kind === "country") { countries.push(item); return; }
    var lat = parseFloat(item.lat), lng = parseFloat(item.lng);
    if (!isFinite(lat) || !isFinite(lng)) { return; }
    var marker = item.kind === "event"
      ? L.circleMarker([lat, lng], { radius: 6, color: "#e15759", weight: 2 })
      : L.marker([lat, lng], { title: item.label + " (" + item.count + ")", alt: item.label });
    marker.bindPopup(function () { return popup(item); });
    layers[item.kind === "event" ? "event" : "city"].addLayer(marker);
    bounds.push([lat, lng]);
  });
  layers.city.addTo(map);
  layers.event.addTo(map);
  layers.country.addTo(map);
  if (bounds.length) { map.fitBounds(bounds, { maxZoom: 6, padding: [20, 20] }); }
  element.setAttribute("data-markers", String(bounds.length));

  [["show-events", "event"], ["show-places", "city"], ["show-countries", "country"]].forEach(function (pair) {
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

  // The centre of a country: the area-weighted centroid of its largest polygon (France's
  // mainland, not the middle of France and French Guiana).
  function centre(geometry) {
    var polygons = geometry.type === "Polygon" ? [geometry.coordinates]
      : geometry.type === "MultiPolygon" ? geometry.coordinates : [];
    var best = null, bestArea = 0;
    polygons.forEach(function (rings) {
      var ring = rings[0], area = 0, x = 0, y = 0;
      for (var i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        var cross = ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
        area += cross;
        x += (ring[j][0] + ring[i][0]) * cross;
        y += (ring[j][1] + ring[i][1]) * cross;
      }
      if (Math.abs(area) > bestArea && area !== 0) {
        bestArea = Math.abs(area);
        best = [y / (3 * area), x / (3 * area)];
      }
    });
    return best;
  }

  fetch(data.outlines).then(function (response) { return response.json(); })
    .then(function (world) {
      var features = topojson.feature(world, world.objects.countries).features;
      var byId = {};
      features.forEach(function (feature) { unwrap(feature.geometry); byId[feature.id] = feature; });
      L.geoJSON({ type: "FeatureCollection", features: features }, {
        style: { color: "#8a99a8", weight: 0.7, fillColor: "#eef1f4", fillOpacity: 1 },
        interactive: false
      }).addTo(map).bringToBack();
      var drawn = 0;
      countries.forEach(function (item) {
        var feature = byId[item.country];
        var at = feature && feature.geometry ? centre(feature.geometry) : null;
        if (!at) { return; }
        var circle = L.circleMarker(at, { radius: radius(item.count), color: "#2f5f8a", weight: 1.5, className: "kg-country",
                                          fillColor: "#2f5f8a", fillOpacity: 0.25 });
        circle.bindTooltip(item.label + " (" + item.count + ")");
        circle.bindPopup(function () { return popup(item); });
        layers.country.addLayer(circle);
        drawn += 1;
      });
      element.setAttribute("data-outlines", String(features.length));
      element.setAttribute("data-countries", String(drawn));
    });
}());
