// live.js keeps a served curator dashboard up to date. It listens to the
// server's events; when its project (any project, on the index) changes, it
// fetches the page again and puts the new body in place of the old one,
// without a reload. The fetched page is only parsed, never run: its scripts
// are dropped, and its texts come escaped from the server. A small marker
// says whether the page is live or reconnecting.
(function () {
  "use strict";
  var me = document.currentScript;
  var project = (me && me.getAttribute("data-project")) || "";

  var marker = document.createElement("div");
  marker.id = "live-status";
  marker.setAttribute("role", "status");
  var st = marker.style;
  st.position = "fixed";
  st.top = ".5rem";
  st.right = ".5rem";
  st.padding = "0 .5rem";
  st.borderRadius = "1rem";
  st.border = "1px solid currentColor";
  st.background = "#fff";
  st.font = "12px/1.6 system-ui, sans-serif";

  function show(text, color) {
    marker.textContent = text;
    marker.style.color = color;
    if (marker.parentNode !== document.body) document.body.appendChild(marker);
  }

  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.pathname + location.search, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        // The page at this address may have become another (an index
        // once there are several projects): follow the project it names.
        var next = doc.querySelector('script[src="/live.js"]');
        if (next) project = next.getAttribute("data-project") || "";
        doc.querySelectorAll("script").forEach(function (s) { s.remove(); });
        var nodes = Array.prototype.map.call(doc.body.childNodes, function (n) {
          return document.importNode(n, true);
        });
        document.title = doc.title;
        nodes.push(marker);
        document.body.replaceChildren.apply(document.body, nodes);
        document.documentElement.setAttribute("data-live-updated", new Date().toISOString());
        if (source.readyState === EventSource.OPEN) show("live", "#1a7f37");
      })
      .catch(function (err) { show("live · update failed (" + err.message + ")", "#cf222e"); })
      .finally(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  var lost = false;
  var source = new EventSource("/events");
  source.addEventListener("open", function () {
    show("live", "#1a7f37");
    // Updates sent while the stream was down were missed.
    if (lost) { lost = false; refresh(); }
  });
  source.addEventListener("error", function () {
    lost = true;
    if (source.readyState === EventSource.CLOSED) show("not live: the server stopped", "#57606a");
    else show("reconnecting…", "#9a6700");
  });
  source.addEventListener("update", function (e) {
    if (!project || !e.data || e.data === project) refresh();
  });
})();
