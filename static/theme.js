// Theme: apply the stored or system theme before first paint (loaded blocking in <head>,
// tiny, and external so a strict Content-Security-Policy works), then wire the toggle.
(function () {
  "use strict";
  var root = document.documentElement;
  var KEY = "kbook-theme";
  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function system() {
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  var preset = root.getAttribute("data-default-theme");
  var theme = stored() || (preset === "light" || preset === "dark" ? preset : system());
  root.setAttribute("data-theme", theme);
  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.querySelector(".theme-toggle");
    if (toggle) {
      toggle.setAttribute("aria-pressed", String(root.getAttribute("data-theme") === "dark"));
      toggle.addEventListener("click", function () {
        var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
        root.setAttribute("data-theme", next);
        toggle.setAttribute("aria-pressed", String(next === "dark"));
        try { localStorage.setItem(KEY, next); } catch (e) { /* storage may be blocked on file:// */ }
      });
    }
    var nav = document.querySelector(".nav-toggle");
    var sidebar = document.getElementById("sidebar");
    if (nav && sidebar) {
      nav.addEventListener("click", function () {
        var open = sidebar.classList.toggle("open");
        nav.setAttribute("aria-expanded", String(open));
      });
    }
    // Copy buttons on code blocks and error strings.
    var blocks = document.querySelectorAll(".entry pre");
    for (var i = 0; i < blocks.length; i++) {
      (function (pre) {
        var btn = document.createElement("button");
        btn.type = "button";
        btn.className = "copy-button";
        btn.textContent = "Copy";
        btn.setAttribute("aria-label", "Copy to clipboard");
        btn.addEventListener("click", function () {
          var text = pre.querySelector("code") ? pre.querySelector("code").textContent : pre.textContent;
          if (navigator.clipboard) {
            navigator.clipboard.writeText(text).then(function () { btn.textContent = "Copied"; }, function () { btn.textContent = "Copy failed"; });
          }
        });
        pre.parentNode.insertBefore(btn, pre);
      })(blocks[i]);
    }
  });
})();
