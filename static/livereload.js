// kbook serve: reload the page after a good rebuild; show the build's diagnostics in an
// overlay after a failed one. Served only by `kbook serve`, never part of a built site.
(function () {
  "use strict";
  var OVERLAY_ID = "kbook-build-errors";
  function clear() {
    var old = document.getElementById(OVERLAY_ID);
    if (old) old.parentNode.removeChild(old);
  }
  function show(diags) {
    clear();
    var box = document.createElement("div");
    box.id = OVERLAY_ID;
    box.className = "kbook-overlay";
    box.setAttribute("role", "alert");
    var h = document.createElement("h2");
    // Warnings come with the errors; the count names each.
    var errors = diags.filter(function (d) { return d.level === "error"; }).length;
    var warnings = diags.length - errors;
    h.textContent = "Build failed: " + errors + " error" + (errors === 1 ? "" : "s") +
      (warnings ? ", " + warnings + " warning" + (warnings === 1 ? "" : "s") : "");
    box.appendChild(h);
    // The page under it stays readable: the overlay closes until the next build says more.
    var close = document.createElement("button");
    close.type = "button";
    close.className = "kbook-overlay-close";
    close.textContent = "Close";
    close.addEventListener("click", clear);
    box.appendChild(close);
    var list = document.createElement("ul");
    diags.forEach(function (d) {
      var li = document.createElement("li");
      var where = document.createElement("code");
      where.textContent = d.path + (d.line ? ":" + d.line + ":" + (d.column || 1) : "");
      li.appendChild(where);
      li.appendChild(document.createTextNode(" " + d.level + ": " + d.message));
      if (d.hint) {
        var hint = document.createElement("div");
        hint.className = "kbook-overlay-hint";
        hint.textContent = "hint: " + d.hint;
        li.appendChild(hint);
      }
      list.appendChild(li);
    });
    box.appendChild(list);
    var note = document.createElement("p");
    note.textContent = "Fix the problems and save: the page reloads after the next good build.";
    box.appendChild(note);
    document.body.appendChild(box);
  }
  if (typeof EventSource !== "function") return;
  var source = new EventSource("/__kbook/events");
  source.addEventListener("reload", function () { window.location.reload(); });
  source.addEventListener("error", function (ev) {
    if (!ev.data) return; // a connection error, not a build error: EventSource retries
    try { show(JSON.parse(ev.data)); } catch (e) { /* malformed payload: ignore */ }
  });
})();
