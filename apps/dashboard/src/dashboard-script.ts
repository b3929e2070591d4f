/**
 * The dashboard's one script (served as a file: the CSP allows no inline script). Pages work
 * without it; it only shows dates in the viewer's time zone (UTC stays on hover), and moves the
 * invitation token from the link's fragment (never sent to a server) into the accept form.
 */
export const DASHBOARD_SCRIPT = `
(function () {
  var format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  document.querySelectorAll("time[datetime]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) return;
    el.title = el.getAttribute("datetime").replace("T", " ").replace(/\\.\\d+Z$/, " UTC");
    el.textContent = format.format(when);
  });
  var token = document.getElementById("invitation-token");
  var match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (token && match && !token.value) {
    token.value = decodeURIComponent(match[1]);
    history.replaceState(null, "", location.pathname);
  }
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (!confirm(form.getAttribute("data-confirm"))) e.preventDefault();
    });
  });
})();
`;
