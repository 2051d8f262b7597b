import Essentials
import HTTPServerKit
import JSONKit

/// The console's stylesheet and script, served from the binary (`/_/console.css`,
/// `/_/console.js`): no CDN, no framework, no build step. The pages carry no inline script or
/// style, so the Content-Security-Policy allows only these two files.
enum ConsoleAssets {
  static let css = """
    :root { color-scheme: light dark; --bg: #fff; --fg: #1a1a1a; --muted: #555; --line: #ccc;
      --accent: #0b57d0; --bad: #b3261e; --ok: #146c2e; --stripe: #f4f4f6; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #121212; --fg: #ececec; --muted: #b0b0b0; --line: #444;
        --accent: #8ab4f8; --bad: #f2b8b5; --ok: #8bd19b; --stripe: #1e1e22; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg);
      font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
    a { color: var(--accent); }
    a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, main:focus-visible {
      outline: 3px solid var(--accent); outline-offset: 2px; }
    .skip { position: absolute; left: -100vw; }
    .skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; z-index: 1; }
    header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .5rem 1rem;
      border-bottom: 1px solid var(--line); }
    .brand { font-weight: 700; margin: 0; }
    nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
    nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
    main { padding: 1rem; max-width: 90rem; }
    h1 { font-size: 1.5rem; margin: .25rem 0 1rem; }
    h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
    table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
    caption { text-align: left; font-weight: 600; padding: .25rem 0; }
    th, td { border-bottom: 1px solid var(--line); padding: .3rem .5rem; text-align: left;
      vertical-align: top; overflow-wrap: break-word; }
    thead th { white-space: nowrap; }
    td code, td a { overflow-wrap: anywhere; }
    tbody tr:nth-child(even) { background: var(--stripe); }
    .facts th { width: 14rem; }
    .table-wrap { overflow-x: auto; }
    form { margin: .5rem 0; }
    form.inline { display: inline-block; margin: .15rem .25rem .15rem 0; }
    fieldset { border: 1px solid var(--line); margin: .5rem 0; }
    label { display: inline-block; margin: .25rem .75rem .25rem 0; }
    input, select, button { font: inherit; color: inherit; background: var(--bg);
      border: 1px solid var(--line); border-radius: 4px; padding: .25rem .5rem; }
    button { cursor: pointer; border-color: var(--accent); }
    button.danger { border-color: var(--bad); color: var(--bad); }
    .tabs { display: flex; flex-wrap: wrap; gap: .5rem; margin-bottom: .5rem; }
    .tabs a { padding: .25rem .75rem; border: 1px solid var(--line); border-radius: 4px; }
    .tabs a[aria-current="page"] { border-color: var(--accent); font-weight: 700; }
    .notice { border-left: 4px solid var(--ok); padding: .5rem 1rem; background: var(--stripe); }
    .warning { border-left: 4px solid var(--bad); padding: .5rem 1rem; background: var(--stripe); }
    .muted { color: var(--muted); }
    .yes { color: var(--ok); } .no { color: var(--bad); }
    pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--stripe); padding: .5rem; }
    img.qr { background: #fff; padding: .5rem; }
    img { max-width: 100%; height: auto; }
    input, select { max-width: 100%; }
    textarea { display: block; width: 100%; font: .9rem/1.4 ui-monospace, monospace; color: inherit;
      background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: .25rem .5rem; }
    code { font-size: .9em; overflow-wrap: anywhere; }
    td code.id, code.id { white-space: nowrap; overflow-wrap: normal; }
    button.copy { font-size: .8rem; padding: 0 .4rem; margin-left: .3rem; vertical-align: baseline; }
    .offscreen { position: fixed; left: -100vw; top: 0; }
    .paging { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; margin: .5rem 0; }
    @media (max-width: 40rem) {
      main { padding: .5rem; }
      .facts th, .facts td { display: block; width: auto; }
      .facts th { border-bottom: 0; padding-bottom: 0; }
      .facts td code.id { white-space: normal; overflow-wrap: anywhere; }
    }
    """

  /// Puts the browser's local time in the title of every `<time>` (shown on hover), shows the
  /// accounts list's "select every account on this page" tick and works it, shows and
  /// works the copy buttons (the Clipboard API, else a selected text and `copy`), and keeps the
  /// inbox current: polls `/_/inbox.json` every two seconds and rebuilds the table with DOM text
  /// nodes (never markup from data); links only for http(s).
  static let js = """
    "use strict";
    function authshLocalTimes(root) {
      var times = root.querySelectorAll("time[datetime]");
      for (var i = 0; i < times.length; i++) {
        var date = new Date(times[i].getAttribute("datetime"));
        if (!isNaN(date.getTime())) {
          times[i].title = date.toLocaleString() + " (local time; " + times[i].getAttribute("datetime") + ")";
        }
      }
    }
    authshLocalTimes(document);
    (function () {
      var all = document.getElementById("select-all");
      var boxes = document.querySelectorAll("#accounts input[name=id]");
      if (!all || !boxes.length) { return; }
      all.hidden = false;
      all.addEventListener("change", function () {
        for (var i = 0; i < boxes.length; i++) { boxes[i].checked = all.checked; }
      });
    })();
    function authshCopyButtons(root) {
      var buttons = root.querySelectorAll("button.copy");
      for (var i = 0; i < buttons.length; i++) { buttons[i].hidden = false; }
    }
    function authshCopyButton(value, what) {
      var button = document.createElement("button");
      button.type = "button"; button.className = "copy"; button.textContent = "Copy";
      button.setAttribute("data-copy", value); button.setAttribute("aria-label", "Copy " + what);
      return button;
    }
    authshCopyButtons(document);
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("button.copy");
      if (!button) { return; }
      var value = button.getAttribute("data-copy");
      function show(text) {
        button.textContent = text;
        setTimeout(function () { button.textContent = "Copy"; }, 2000);
      }
      function fallback() {
        var area = document.createElement("textarea");
        area.value = value; area.setAttribute("readonly", ""); area.className = "offscreen";
        document.body.appendChild(area); area.select();
        var copied = false;
        try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
        document.body.removeChild(area); button.focus();
        show(copied ? "Copied" : "Select and copy by hand");
      }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(value).then(function () { show("Copied"); }, fallback);
      } else { fallback(); }
    });
    (function () {
      var table = document.getElementById("inbox");
      if (!table) { return; }
      var body = table.tBodies[0];
      var status = document.getElementById("inbox-status");
      var last = "";
      function cell(row, value) { var td = row.insertCell(); td.textContent = value; return td; }
      function render(messages) {
        var rows = document.createDocumentFragment();
        messages.forEach(function (m) {
          var tr = document.createElement("tr");
          var when = document.createElement("time");
          when.setAttribute("datetime", m.iso); when.title = m.iso; when.textContent = m.time;
          tr.insertCell().appendChild(when); cell(tr, m.side); cell(tr, m.email); cell(tr, m.kind);
          var td = tr.insertCell();
          if (/^https?:\\/\\//i.test(m.link)) {
            var a = document.createElement("a"); a.href = m.link; a.textContent = m.link; td.appendChild(a);
          } else { td.textContent = m.link; }
          if (m.link) { td.appendChild(authshCopyButton(m.link, "the link")); }
          var code = tr.insertCell();
          if (m.code) {
            var c = document.createElement("code"); c.textContent = m.code; code.appendChild(c);
            code.appendChild(authshCopyButton(m.code, "the code"));
          }
          rows.appendChild(tr);
        });
        while (body.firstChild) { body.removeChild(body.firstChild); }
        body.appendChild(rows);
        authshLocalTimes(body);
      }
      function poll() {
        fetch("/_/inbox.json", { cache: "no-store", credentials: "same-origin" })
          .then(function (r) { return r.json(); })
          .then(function (data) {
            var text = JSON.stringify(data.messages);
            if (text !== last) { last = text; render(data.messages); }
            if (status) { status.textContent = data.messages.length + " message(s), updated " + new Date().toLocaleTimeString(); }
          })
          .catch(function () { if (status) { status.textContent = "The emulator did not answer; retrying."; } })
          .then(function () { setTimeout(poll, 2000); });
      }
      setTimeout(poll, 2000);
    })();
    """
}
