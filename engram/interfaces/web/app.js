/* Engram web UI: vanilla JS over the REST API on the same origin (/v1, /api). No build step.
 * Libraries (vendored, optional at run time): Chart.js for the timeline, Cytoscape.js for the concept network.
 * Every string from the server is put in the page as text (textContent), never as HTML, but for one: a memory's
 * Markdown as the server's renderer (markdown-it, raw HTML escaped, script links refused) turned it into HTML. */
(() => {
  "use strict";

  // ---- constants -------------------------------------------------------------------------------------------
  const COMPONENTS = [
    ["vector", "Vector", "Semantic similarity of the embeddings"],
    ["lexical", "Lexical", "BM25 and token overlap with the query"],
    ["importance", "Importance", "Importance, decayed since last use"],
    ["recency", "Recency", "Freshness of the last access or update"],
    ["usage", "Usage", "How often it was recalled (saturating)"],
    ["context", "Context", "Relevance of its neighbours in the same episode"],
    ["episode", "Episode", "Its own relevance with that of its episode's best match (geometric mean)"],
    ["time", "Time", "Closeness to a time the query names, such as \"in June 2023\""],
  ];
  const VIEWS = ["search", "review", "timeline", "concepts", "tags", "data", "stats"];
  const WEAK = 0.3; // a best hit under this score is only the closest memory, not a match
  // Without the server's confidence, a hit scoring under this share of the best one is a weaker match: shown
  // only on request, so ten results are not padded out with memories that have little to do with the query.
  const RELATIVE = 0.5;
  const KEY_STORE = "engram.apiKey";
  const EXAMPLES = [
    "I prefer concise answers with the code first and the explanation after.",
    "The staging deploy runs from ops/deploy.sh and needs the AWS_PROFILE=staging credentials.",
    "Meeting with Priya every Thursday at 10:00 about the search roadmap.",
    "Python asyncio tasks must be kept referenced or awaited, otherwise they can be garbage collected.",
    "Renew the TLS certificate for api.example.com before March 15.",
    "Use ruff for linting and mypy --strict for type checks in every Python project.",
    "The team decided to store embeddings as int8 to halve the index size.",
    "My timezone is Europe/Berlin; schedule nothing before 09:00.",
  ];
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // ---- small helpers ---------------------------------------------------------------------------------------
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k === "style") for (const [p, val] of Object.entries(v)) el.style.setProperty(p, val);
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "text") el.textContent = v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    append(el, children);
    return el;
  }
  function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c == null || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }
  function icon(name, cls = "icon") {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", cls);
    svg.setAttribute("aria-hidden", "true");
    const use = document.createElementNS(ns, "use");
    use.setAttribute("href", `#i-${name}`);
    svg.append(use);
    return svg;
  }
  const clamp01 = (x) => Math.max(0, Math.min(1, Number(x) || 0));
  const fmt = (x, digits = 2) => (typeof x === "number" && Number.isFinite(x) ? x.toFixed(digits) : "–");
  const importance5 = (x) => Math.round(clamp01(x) * 4) + 1;
  const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  function ago(iso) {
    if (!iso) return "never";
    const t = new Date(iso).getTime();
    if (Number.isNaN(t)) return String(iso);
    const s = (t - Date.now()) / 1000;
    const units = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];
    for (const [unit, n] of units) if (Math.abs(s) >= n) return rtf.format(Math.round(s / n), unit);
    return "just now";
  }
  const fullDate = (iso) => (iso ? new Date(iso).toLocaleString() : "");
  // A date to read at a glance: "Nov 26, 2026" (the year always in full), or how long ago within a week.
  function shortDate(iso) {
    if (!iso) return "";
    const t = new Date(iso);
    if (Number.isNaN(t.getTime())) return String(iso);
    return Math.abs(Date.now() - t.getTime()) < 7 * 86400000 ? ago(iso) : t.toLocaleDateString(undefined, { dateStyle: "medium" });
  }
  function bytes(n) {
    if (typeof n !== "number") return "–";
    const u = ["B", "KB", "MB", "GB", "TB"];
    let i = 0;
    while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
    return `${n.toFixed(i ? 1 : 0)} ${u[i]}`;
  }
  const parseTags = (text) => text.split(",").map((t) => t.trim()).filter(Boolean);
  const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

  // ---- API ---------------------------------------------------------------------------------------------------
  class ApiError extends Error {
    constructor(status, body) {
      const b = body && typeof body === "object" ? body : {};
      let detail = b.detail ?? b.error ?? (status ? `HTTP ${status}` : "request failed");
      if (typeof detail !== "string") detail = JSON.stringify(detail);
      super(b.field ? `${b.field}: ${detail}` : detail);
      this.status = status;
      this.title = b.title || (status ? `Error ${status}` : "Network error");
      this.detail = detail;
      this.field = b.field || null;
    }
  }
  function storedKey() {
    try { return localStorage.getItem(KEY_STORE) || ""; } catch { return ""; }
  }
  // `file`: the body is sent as it is (an upload, of `type`); `download`: the answer is returned as a Response.
  async function api(method, path, body, { file = false, download = false, type = "application/json" } = {}) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = type;
    const key = storedKey();
    if (key) headers.Authorization = `Bearer ${key}`;
    let res;
    try {
      res = await fetch(path, { method, headers, body: body === undefined || file ? body : JSON.stringify(body) });
    } catch {
      setConn("bad", "Server unreachable");
      throw new ApiError(0, { title: "Network error", detail: "the Engram server could not be reached" });
    }
    if (download && res.ok) return res;
    const text = await res.text();
    let data = null;
    if (text) {
      try { data = JSON.parse(text); } catch { data = { detail: text.slice(0, 300) }; }
    }
    if (!res.ok) {
      const err = new ApiError(res.status, data);
      if (res.status === 401) askForKey(err.detail);
      throw err;
    }
    return data;
  }
  const v1 = {
    // touch: false, as browsing is no use: it must not make what it shows rank higher for the next question.
    recall: (query, limit) => api("POST", "/v1/recall", { query, limit, mode: "ranked", touch: false }),
    search: (query, limit) => api("POST", "/v1/search", { query, options: { limit, min_relevance: 0 } }),
    // search_memory as an agent asks it, for its list of things to do (due soonest first, each with its day).
    todo: (query, limit) => api("POST", "/v1/search", { query, options: { limit }, touch: false }),
    list: (params) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) if (v !== "" && v != null) q.set(k, String(v));
      return api("GET", `/v1/memories?${q}`);
    },
    get: (id) => api("GET", `/v1/memories/${encodeURIComponent(id)}`),
    patch: (id, fields) => api("PATCH", `/v1/memories/${encodeURIComponent(id)}`, fields),
    remove: (id) => api("DELETE", `/v1/memories/${encodeURIComponent(id)}`),
    store: (content, context) => api("POST", "/v1/store", { content, context }),
    stats: () => api("GET", "/v1/stats"),
    tools: () => api("GET", "/v1/tools"),
    tool: (name, args = {}) => api("POST", `/v1/tools/${name}`, { arguments: args }),
    review: (action, ids) => api("POST", "/v1/review", { action, ids }),
    tags: () => api("GET", "/v1/tags"),
    rendered: (id) => api("GET", `/v1/memories/${encodeURIComponent(id)}/rendered`),
    exportFile: (withEmbeddings) => api("GET", `/v1/export?with_embeddings=${withEmbeddings}`, undefined, { download: true }),
    importFile: (file) => api("POST", "/v1/import", file, { file: true, type: "application/x-ndjson" }),
  };

  // ---- toasts and connection ---------------------------------------------------------------------------------
  function toast(message, { error = false, action = null, ms = 4500 } = {}) {
    const box = $("#toasts");
    // Behind an open modal dialog the page is inert: the toasts go into the dialog, so an Undo there is usable
    // (setupDialogs puts them back when it closes).
    const host = $$("dialog[open]").filter((d) => d.matches(":modal")).pop() || document.body;
    if (box.parentElement !== host) host.append(box);
    const el = h("div", { class: `toast${error ? " error" : ""}`, role: error ? "alert" : "status" },
      h("span", { class: "msg" }, message));
    if (action) {
      el.append(h("button", { type: "button", class: "btn small", onclick: () => { el.remove(); action.run(); } },
        action.label));
    }
    box.append(el);
    setTimeout(() => el.remove(), action ? ms + 2500 : ms);
  }
  const toastError = (err) => toast(err instanceof ApiError ? `${err.title}: ${err.message}` : String(err), { error: true });

  function setConn(state, text) {
    const el = $("#conn");
    el.dataset.state = state;
    $("#conn-text").textContent = text;
  }

  // ---- shared rendering ----------------------------------------------------------------------------------------
  function importanceDots(value) {
    const n = importance5(value);
    return h("span", { class: "dots", title: `Importance ${n} of 5 (${fmt(value)})`, role: "img",
      "aria-label": `importance ${n} of 5` },
    [1, 2, 3, 4, 5].map((i) => h("i", { class: i <= n ? "on" : "" })));
  }
  // Personal data found in a memory (kinds only; the values are never sent apart from the content itself). A
  // memory written by the write path keeps the kinds in metadata.pii_found / pii_redacted; one extracted from a
  // conversation by ingest in metadata.pii {kinds, redacted}.
  function piiKinds(meta) {
    const m = meta || {};
    const ingest = m.pii && typeof m.pii === "object" ? m.pii : {};
    const kinds = Array.isArray(ingest.kinds) ? ingest.kinds : [];
    const kept = Array.isArray(m.pii_found) && m.pii_found.length ? m.pii_found : ingest.redacted ? [] : kinds;
    const redacted = Array.isArray(m.pii_redacted) && m.pii_redacted.length ? m.pii_redacted : ingest.redacted ? kinds : [];
    return { kept, redacted };
  }
  function piiChip(meta) {
    const { kept, redacted } = piiKinds(meta);
    if (!kept.length && !redacted.length) return null;
    return kept.length
      ? h("span", { class: "chip pii", title: `Holds personal data: ${kept.join(", ")}` }, "personal data")
      : h("span", { class: "chip", title: `Personal data redacted: ${redacted.join(", ")}` }, "redacted");
  }
  const isExpired = (m) => !!m.expires_at && new Date(m.expires_at).getTime() <= Date.now();
  function metaRow(m, { tags = 5 } = {}) {
    const shown = (m.tags || []).slice(0, tags);
    const more = (m.tags || []).length - shown.length;
    return h("div", { class: "meta" },
      h("span", { class: "chip kind", title: `kind (${m.kind_method || "auto"})` }, m.kind),
      m.scope && m.scope !== "global" ? h("span", { class: "chip", title: "scope" }, m.scope_id ? `${m.scope}:${m.scope_id}` : m.scope) : null,
      m.status && m.status !== "approved" ? h("span", { class: `chip status-${m.status}` }, m.status) : null,
      isExpired(m) ? h("span", { class: "chip expired", title: `Expired ${fullDate(m.expires_at)}: recall no longer returns it` }, "expired") : null,
      m.category ? h("span", { class: "chip", title: "category" }, m.category) : null,
      m.user_marked_important ? h("span", { class: "chip star" }, icon("star"), "important") : null,
      piiChip(m.metadata),
      typeof m.validity_score === "number" && m.validity_score < 1
        ? h("span", { class: "chip invalid", title: "validity score" }, m.validity_score === 0 ? "invalidated" : `validity ${fmt(m.validity_score)}`)
        : null,
      importanceDots(m.importance),
      shown.map((t) => h("span", { class: "chip tag", title: t }, t)),  // a tag cut short by its ellipsis, whole on hover
      more > 0 ? h("span", { class: "chip" }, `+${more}`) : null,
      h("span", { title: fullDate(m.created_at) }, ago(m.created_at)),
    );
  }
  function openButton(m, extraClass = "", text = preview(m.content, m.metadata)) {
    return h("button", { type: "button", class: `linklike ${extraClass}`, onclick: () => openDetail(m.parent_id || m.id),
      "aria-label": `Open memory: ${m.content.slice(0, 80)}` }, h("span", { class: "clamp" }, text));
  }
  // A memory on one line: its lines joined, without the Markdown marks (a table row's pipes, paired code or bold
  // marks: "a || b" keeps its own) that would only be noise there; a document's title set apart from its text.
  const flatten = (text) => text.replace(/^\s{0,3}(#{1,6}|[-*+]|\d+[.)]|>)\s+/gm, "").replace(/^(?=.*(\||-{3}))[ \t|:]*-[ \t|:-]*$/gm, "")
    .replace(/^\s*\|(.*)$/gm, (_, row) => row.replace(/\|/g, " "))
    .replace(/\*\*(\S(?:[^\n]*?\S)?)\*\*/g, "$1").replace(/`([^`\n]+)`/g, "$1").replace(/\s+/g, " ").trim();
  function titleOf(text, metadata) {
    const given = metadata && typeof metadata.title === "string" ? metadata.title.trim() : "";
    const heading = (/^\s{0,3}#{1,6}\s+(.+)$/m.exec(text.trimStart().split("\n", 1)[0]) || [])[1] || "";
    return given || flatten(heading);
  }
  function preview(text, metadata) {
    const title = titleOf(text, metadata);
    const flat = flatten(text);
    if (!title || !text.includes("\n")) return flat;
    const body = flat.startsWith(title) ? flat.slice(title.length).trim() : flat;
    return body ? `${title} — ${body}` : title;
  }
  function emptyState(text) { return h("li", { class: "empty" }, text); }

  // The same memory may be on screen in several lists: after an edit, redraw each copy in place.
  const known = new Map(); // id -> record, for every record drawn
  function remember(records) { for (const r of records) known.set(r.id, r); }
  function refreshEverywhere(rec) {
    known.set(rec.id, rec);
    for (const li of $$(`[data-id="${CSS.escape(rec.id)}"]`)) {
      const kind = li.dataset.render;
      if (kind === "result") {
        const card = resultCard({ ...searchState.hits.find((x) => x.memory.id === rec.id), memory: rec }, Number(li.dataset.rank));
        card.hidden = li.hidden;
        li.replaceWith(card);
      }
      else if (kind === "item") li.replaceWith(memItem(rec));
      else if (kind === "concept") refreshConceptItem(li, rec);
    }
    const hit = searchState.hits.find((x) => x.memory.id === rec.id);
    if (hit) hit.memory = rec;
  }

  // ---- views / tabs -------------------------------------------------------------------------------------------
  let view = "search";
  const loaders = {};
  // The URL holds the tab and the search query (#search?q=...): Back and Forward move between them, and a
  // refresh comes back to the same place.
  function urlFor(name, query) {
    return `#${name}${name === "search" && query ? `?q=${encodeURIComponent(query)}` : ""}`;
  }
  function readUrl() {
    const [name, rest = ""] = location.hash.slice(1).split("?");
    return { name: VIEWS.includes(name) ? name : "search", query: new URLSearchParams(rest).get("q") || "" };
  }
  function setUrl(hash, { replace = false } = {}) {
    if (location.hash === hash) return;
    if (replace) history.replaceState(null, "", hash);
    else history.pushState(null, "", hash);
  }
  function fromUrl() {
    const { name, query } = readUrl();
    if (name === "search" && query !== searchState.query) {
      $("#q").value = query;
      runSearch();
    }
    if (name !== view) show(name, { url: false });
  }

  function show(name, { focusTab = false, load = true, url = true } = {}) {
    if (!VIEWS.includes(name)) name = "search";
    view = name;
    for (const tab of $$("#tabs [role=tab]")) {
      const on = tab.dataset.view === name;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focusTab) tab.focus();
    }
    for (const v of VIEWS) $(`#panel-${v}`).hidden = v !== name;
    if (url) setUrl(urlFor(name, searchState.query));
    if (load && loaders[name]) loaders[name]();
  }
  function setupTabs() {
    const tabs = $$("#tabs [role=tab]");
    for (const tab of tabs) tab.addEventListener("click", () => show(tab.dataset.view));
    $("#tabs").addEventListener("keydown", (e) => {
      const i = tabs.indexOf(document.activeElement);
      if (i < 0) return;
      let j = null;
      if (e.key === "ArrowDown" || e.key === "ArrowRight") j = (i + 1) % tabs.length;
      else if (e.key === "ArrowUp" || e.key === "ArrowLeft") j = (i - 1 + tabs.length) % tabs.length;
      else if (e.key === "Home") j = 0;
      else if (e.key === "End") j = tabs.length - 1;
      if (j == null) return;
      e.preventDefault();
      show(tabs[j].dataset.view, { focusTab: true });
    });
    // Both fire on some navigations; fromUrl does nothing when the page already shows what the URL says.
    window.addEventListener("popstate", fromUrl);
    window.addEventListener("hashchange", fromUrl);
  }

  function setupShortcuts() {
    document.addEventListener("keydown", (e) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target;
      const typing = t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
      if (typing || document.querySelector("dialog[open]")) return;
      if (e.key === "/") {
        e.preventDefault();
        show("search", { load: view !== "search" });
        $("#q").focus();
        $("#q").select();
      } else if (e.key === "n") {
        e.preventDefault();
        openAdd();
      }
    });
  }

  // ---- search -------------------------------------------------------------------------------------------------
  const searchState = { hits: [], query: "", ms: 0 };

  function componentBar([key, label, help], value) {
    const v = typeof value === "number" ? value : null;
    const fill = h("span", { class: "comp-fill" });
    const el = h("div", { class: `comp c-${key}`, title: help, dataset: { component: key } },
      h("span", { class: "comp-label" }, label),
      h("span", { class: "comp-track", role: "meter", "aria-label": `${label}: ${help}`, "aria-valuemin": 0,
        "aria-valuemax": 1, "aria-valuenow": v == null ? 0 : v.toFixed(3) }, fill),
      h("span", { class: "comp-value" }, v == null ? "–" : v.toFixed(2)));
    const width = `${(v == null ? 0 : clamp01(v)) * 100}%`;
    if (reduceMotion) fill.style.width = width;
    else requestAnimationFrame(() => requestAnimationFrame(() => { fill.style.width = width; }));
    return el;
  }

  // A result on one line: its content, then kind, tags and date; the score's breakdown behind "why".
  function resultCard(hit, rank) {
    const m = hit.memory;
    remember([m]);
    const weak = isWeak(hit);
    const whyId = `why-${rank}-${m.id}`;
    const panel = h("div", { class: "why-panel", id: whyId, hidden: true });
    const toggle = h("button", { type: "button", class: "why-btn", "aria-expanded": "false", "aria-controls": whyId,
      title: "Show the signals behind this score" }, "why");
    toggle.addEventListener("click", () => {
      const opening = panel.hidden;
      if (opening && !panel.firstChild) panel.append(...whyParts(hit));
      panel.hidden = !opening;
      toggle.setAttribute("aria-expanded", String(opening));
    });
    const shown = (m.tags || []).slice(0, 3);
    return h("li", { class: `card result${weak ? " weak" : ""}`,
      dataset: { id: m.id, render: "result", rank: String(rank), ...(m.parent_id ? { parent: m.parent_id } : {}) } },
    h("div", { class: "result-line" },
      openButton(m, "one-line"),
      bandOf(hit)),
    h("div", { class: "meta" },
      dueChip(hit),
      h("span", { class: "chip kind", title: `kind (${m.kind_method || "auto"})` }, m.kind),
      m.parent_id ? h("span", { class: "chip chip-part", title: "Part of a longer memory: opening it opens the whole memory" },
        `Part ${(m.chunk_index ?? 0) + 1} of a document`) : null,
      m.status && m.status !== "approved" ? h("span", { class: `chip status-${m.status}` }, m.status) : null,
      isExpired(m) ? h("span", { class: "chip expired", title: `Expired ${fullDate(m.expires_at)}: recall no longer returns it` }, "expired") : null,
      piiChip(m.metadata),
      weak ? h("span", { class: "pill weak", title: "well below the best match, or the server's low confidence" }, "weak") : null,
      shown.map((t) => h("span", { class: "chip tag", title: t }, t)),  // a tag cut short by its ellipsis, whole on hover
      (m.tags || []).length > shown.length ? h("span", { class: "chip" }, `+${m.tags.length - shown.length}`) : null,
      h("time", { datetime: m.created_at, title: fullDate(m.created_at) }, shortDate(m.created_at)),
      toggle),
    panel);
  }
  // How surely the hit answers the question, as the server grades it (the score behind "why"); from an older
  // server that grades nothing, the score itself.
  const BANDS = { high: "likely answers the question", medium: "may answer the question", low: "a guess: it shares little with the question" };
  function bandOf(hit) {
    const c = hit.confidence;
    if (typeof c !== "string" || !(c in BANDS)) return h("span", { class: "score-value", title: "score" }, fmt(hit.score, 3));
    return h("span", { class: `band band-${c}`, title: `${c[0].toUpperCase()}${c.slice(1)} confidence: ${BANDS[c]}`,
      dataset: { confidence: c } }, c);
  }
  function whyParts(hit) {
    const c = hit.components || {};
    const raw = [];
    for (const k of ["cosine", "bm25", "base", "validity", "negative_penalty"]) {
      if (typeof c[k] === "number") raw.push(`${k} ${fmt(c[k], 3)}`);
    }
    return [
      h("p", { class: "why-lead" }, hit.why ? `Returned as a ${hit.why}` : "Returned",
        hit.confidence ? ` · ${hit.confidence} confidence` : "", " · score ", h("span", { class: "score-value" }, fmt(hit.score, 3))),
      h("div", { class: "components", role: "group", "aria-label": "Score components" },
        COMPONENTS.map((comp) => componentBar(comp, c[comp[0]]))),
      raw.length ? h("p", { class: "raw" }, raw.join(" · ")) : null,
    ].filter(Boolean);
  }

  // Which hits are shown at once: those above the server's low confidence when it gives one, else those within
  // reach of the best score. The rest wait behind "show weaker matches".
  function isWeak(hit) {
    if (typeof hit.confidence === "string") return hit.confidence === "low";
    return hit.weak === true;
  }
  function markWeak(hits) {
    if (hits.some((x) => typeof x.confidence === "string")) return hits;
    const best = Math.max(0, ...hits.map((x) => (typeof x.score === "number" ? x.score : 0)));
    for (const x of hits) x.weak = best < WEAK || (typeof x.score === "number" && x.score < best * RELATIVE);
    return hits;
  }

  // The best-placed hit of each memory, in the server's order: a chunk stands for its parent.
  function onePerMemory(hits) {
    const seen = new Set();
    return hits.filter((hit) => {
      const key = hit.memory.parent_id || hit.memory.id;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  async function runSearch() {
    const query = $("#q").value.trim();
    const limit = Number($("#search-limit").value) || 10;
    const status = $("#search-status");
    const list = $("#results");
    status.classList.remove("error");
    if (!query) {
      searchState.hits = [];
      searchState.query = "";
      if (view === "search") setUrl(urlFor("search", ""));
      list.replaceChildren();
      status.textContent = "";
      $("#results-more").hidden = true;
      $("#browse").hidden = false;
      return;
    }
    status.textContent = "Searching…";
    const t0 = performance.now();
    const seq = ++searchSeq;
    try {
      let hits;
      // Every thing to do the question asks for is read (up to TODO_MAX): those past the chosen number wait
      // behind "show more", so a list longer than it is never silently cut short.
      const listing = todoList(query, Math.max(limit, TODO_MAX));
      try {
        // Chunks of one long memory come back as hits of their own: ask for more, keep one per memory.
        hits = onePerMemory((await v1.recall(query, Math.min(limit * 3, 1000))).results || []).slice(0, limit);
        hits = (await withDueDays(await listing, hits)) || hits;
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 404) throw err;
        // An older server without /v1/recall: search_memory, with the overall relevance only.
        const found = await v1.search(query, limit);
        hits = (found.results || []).map((r) => ({
          memory: { ...r, kind: r.category || "memory", importance: ((r.importance || 3) - 1) / 4, tags: r.matched_concepts || [] },
          score: r.relevance_score, why: "relevance", components: {}, confidence: r.confidence,
        }));
      }
      if (seq !== searchSeq) return; // a later search has answered or will
      searchState.hits = markWeak(hits);
      searchState.query = query;
      if (view === "search") setUrl(urlFor("search", query));
      searchState.ms = Math.round(performance.now() - t0);
      // In the server's order (MMR: a hit much like one above it yields to a different one).
      list.replaceChildren(...hits.map((hit, i) => {
        const card = resultCard(hit, i + 1);
        card.hidden = isWeak(hit) || ("due" in hit && i >= limit);
        return card;
      }));
      summarize();
      $("#browse").hidden = hits.length > 0;
    } catch (err) {
      if (seq !== searchSeq) return;
      status.textContent = `Search failed — ${err.message}`;
      status.classList.add("error");
    }
  }

  let searchSeq = 0;
  const TODO_MAX = 100; // the most things to do one question lists: each one not recalled is read on its own
  // A question for things to do ("what is due this week?") is answered by search_memory's list: the reminders and
  // dated tasks, due soonest first, each with its due day. null when the question asks for something else.
  async function todoList(query, limit) {
    try {
      const found = await v1.todo(query, limit);
      const rows = found.results || [];
      return rows.length && rows.every((r) => "due" in r) ? rows : null;
    } catch {
      return null; // the ranked results stand alone
    }
  }
  // The list's memories in its order, as cards: the records recall already read, the others read one by one.
  async function withDueDays(rows, recalled) {
    if (!rows) return null;
    const byId = new Map(recalled.map((x) => [x.memory.parent_id || x.memory.id, x]));
    const hits = await Promise.all(rows.map(async (r) => {
      const seen = byId.get(r.id);
      const memory = seen ? seen.memory : await v1.get(r.id).catch(() => null);
      return memory && { memory, score: r.relevance_score, why: "thing to do", components: seen ? seen.components : {},
        confidence: r.confidence, due: r.due };
    }));
    return hits.filter(Boolean);
  }
  function dueChip(hit) {
    if (typeof hit.due !== "string") return null;
    const day = new Date(`${hit.due}T00:00:00`);
    const today = new Date();
    today.setHours(0, 0, 0, 0);
    const late = day < today;
    const label = day.toLocaleDateString(undefined, { weekday: "short", month: "short", day: "numeric",
      ...(day.getFullYear() !== today.getFullYear() ? { year: "numeric" } : {}) });
    return h("span", { class: `chip due${late ? " overdue" : ""}`, title: `${late ? "Was due" : "Due"} ${day.toLocaleDateString(undefined, { dateStyle: "full" })}` },
      `${late ? "was due" : "due"} ${label}`);
  }

  // The count of results and of the weaker ones still waiting, from the hits on screen: after a delete as well.
  function summarize() {
    const { hits, ms } = searchState;
    // A pasted paragraph is quoted by its start: the line says what was asked, not all of it again.
    const query = searchState.query.length > 80 ? `${searchState.query.slice(0, 79)}…` : searchState.query;
    const strong = hits.filter((x) => !isWeak(x)).length;
    const waiting = $$("#results .result[hidden]").length;
    $("#search-status").textContent = !hits.length ? `Nothing matches “${query}”.`
      : !strong ? `No strong match for “${query}”.`
        : hits.some((x) => "due" in x) ? `${strong} thing${strong === 1 ? "" : "s"} to do for “${query}”, due soonest first`
          : `${strong} result${strong === 1 ? "" : "s"} for “${query}” in ${ms} ms`;
    const more = $("#results-more");
    more.hidden = waiting === 0;
    more.textContent = hits.some((x) => "due" in x) ? `Show ${waiting} more thing${waiting === 1 ? "" : "s"} to do`
      : `Show ${waiting} weaker match${waiting === 1 ? "" : "es"}`;
  }

  // recent memories (the browse list under the search box)
  const browse = { cursor: null };
  function memItem(m) {
    remember([m]);
    return h("li", { class: "card mem-item", dataset: { id: m.id, render: "item" } }, openButton(m), metaRow(m));
  }
  async function loadBrowse({ more = false } = {}) {
    const list = $("#browse-list");
    const params = { limit: 20, status: $("#f-status").value, kind: $("#f-kind").value, tag: $("#f-tag").value.trim(),
      cursor: more ? browse.cursor : "" };
    try {
      const data = await v1.list(params);
      const rows = data.memories || [];
      browse.cursor = data.next_cursor || null;
      const items = rows.map(memItem);
      if (more) list.append(...items);
      else if (items.length) list.replaceChildren(...items);
      else list.replaceChildren(emptyState(params.status || params.kind || params.tag
        ? "No memories match these filters." : "No memories stored yet: add one with “Add memory”."));
      $("#browse-more").hidden = !browse.cursor;
    } catch (err) {
      list.replaceChildren(emptyState(`Could not load memories — ${err.message}`));
    }
  }

  function showWeaker() {
    const cards = $$("#results .result[hidden]");
    for (const card of cards) card.hidden = false;
    $("#results-more").hidden = true;
    const first = cards[0] && $(".linklike", cards[0]);
    if (first) first.focus();
  }

  function setupSearch() {
    $("#search-form").addEventListener("submit", (e) => { e.preventDefault(); runSearch(); });
    $("#results-more").addEventListener("click", showWeaker);
    $("#q").addEventListener("search", () => { if (!$("#q").value) runSearch(); }); // the clear (×) button
    $("#q").addEventListener("keydown", (e) => {
      if (e.key === "Escape" && $("#q").value) { e.preventDefault(); $("#q").value = ""; runSearch(); }
    });
    for (const id of ["#f-status", "#f-kind"]) $(id).addEventListener("change", () => loadBrowse());
    let timer = null;
    $("#f-tag").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => loadBrowse(), 300); });
    $("#browse-more").addEventListener("click", () => loadBrowse({ more: true }));
    $("#welcome-add").addEventListener("click", openAdd);
    $("#welcome-examples").addEventListener("click", loadExamples);
    loaders.search = () => { loadBrowse(); checkWelcome(); };
  }

  async function checkWelcome() {
    try {
      const stats = await v1.stats();
      $("#welcome").hidden = (stats.memories || 0) > 0;
      updateBadge(stats);
    } catch { /* the connection line already says what is wrong */ }
  }

  async function loadExamples() {
    const btn = $("#welcome-examples");
    btn.disabled = true;
    try {
      for (const text of EXAMPLES) await v1.store(text);
      toast(`Added ${EXAMPLES.length} example memories. Try searching for “deploy” or “python”.`);
      $("#welcome").hidden = true;
      loadBrowse();
      $("#q").focus();
    } catch (err) {
      toastError(err);
    } finally {
      btn.disabled = false;
    }
  }

  // ---- memory detail / edit ------------------------------------------------------------------------------------
  let current = null; // the record in the drawer, as last read from the server
  let filled = null; // the content and importance as the form showed them when filled
  const EDITABLE = ["content", "kind", "scope", "scope_id", "status", "tags", "importance", "user_marked_important", "validity_score"];

  async function openDetail(id) {
    let rec;
    try {
      rec = await v1.get(id);
      // A chunk is a piece of a long memory, not one to edit on its own: open the whole memory.
      if (rec.parent_id) rec = await v1.get(rec.parent_id);
    } catch (err) {
      toastError(err);
      return;
    }
    fillDetail(rec);
    const dlg = $("#detail");
    if (!dlg.open) dlg.showModal();
    if (isDocument(rec)) {
      $("#d-edit-text").focus();
    } else {
      $("#d-content").focus();
      $("#d-content").setSelectionRange(0, 0); // a long memory opens at its start, not its end
      $("#d-content").scrollTop = 0;
    }
  }

  // A document (several lines, or long) is read as rendered Markdown in a wide drawer; its text is edited on demand.
  const isDocument = (rec) => rec.content.includes("\n") || rec.content.length > 400;
  let renderSeq = 0;
  async function showDocument(rec) {
    const doc = isDocument(rec);
    const panel = $("#d-rendered");
    $("#detail").classList.toggle("wide", doc);
    $("#d-doc-head").hidden = !doc;
    panel.hidden = !doc;
    $("#d-content-box").hidden = doc;
    $("#d-edit-text").setAttribute("aria-expanded", "false");
    $("#d-edit-text").textContent = "Edit text";
    $("#d-content").rows = doc ? 16 : 5;
    if (!doc) { panel.replaceChildren(); return; }
    const seq = ++renderSeq;
    panel.replaceChildren(h("p", { class: "muted" }, "Rendering…"));
    try {
      const out = await v1.rendered(rec.id);
      if (seq !== renderSeq) return;
      // HTML from the server's Markdown renderer: raw HTML in the memory arrives escaped, script links refused.
      panel.innerHTML = out.html;
      for (const a of $$("a[href]", panel)) { a.target = "_blank"; a.rel = "noopener noreferrer"; }
      panel.scrollTop = 0;
    } catch (err) {
      if (seq !== renderSeq) return;
      // Shown as plain text instead: still readable.
      panel.replaceChildren(h("pre", { class: "doc-plain" }, rec.content));
    }
  }
  function toggleEditText() {
    const box = $("#d-content-box");
    const opening = box.hidden;
    box.hidden = !opening;
    $("#d-rendered").hidden = opening;
    $("#d-edit-text").setAttribute("aria-expanded", String(opening));
    $("#d-edit-text").textContent = opening ? "Show rendered" : "Edit text";
    if (opening) { $("#d-content").focus(); $("#d-content").setSelectionRange(0, 0); $("#d-content").scrollTop = 0; }
  }

  function fillDetail(rec) {
    current = rec;
    remember([rec]);
    clearErrors("detail");
    $("#detail-eyebrow").textContent = `${rec.kind} · ${rec.scope}${rec.category ? ` · ${rec.category}` : ""}`;
    const title = (rec.content.includes("\n") && titleOf(rec.content, rec.metadata)) || preview(rec.content);
    $("#detail-title").textContent = title.length > 60 ? `${title.slice(0, 57)}…` : title;
    $("#d-content").value = rec.content;
    $("#d-kind").value = rec.kind;
    $("#d-scope").value = rec.scope;
    $("#d-scope_id").value = rec.scope_id || "";
    $("#d-status").value = rec.status;
    $("#d-tags").value = (rec.tags || []).join(", ");
    $("#d-importance").value = String(rec.importance);
    showImportance();
    $("#d-important").checked = !!rec.user_marked_important;
    // What the form showed as filled: a range input rounds importance to its step, a textarea its line ends.
    filled = { content: $("#d-content").value, importance: $("#d-importance").value };
    showExpiry(rec.expires_at);
    showValidity(rec.validity_score);
    showDocument(rec);
    const facts = $("#d-facts");
    const order = ["id", "type", "category", "category_confidence", "kind_confidence", "kind_method", "source_type", "credibility",
      "tier", "access_count", "last_accessed_at", "created_at", "updated_at", "expires_at", "token_count", "episode_id",
      "parent_id", "quality_score", "emotion", "content_hash", "metadata"];
    facts.replaceChildren(...order.filter((k) => k in rec).flatMap((k) => {
      let v = rec[k];
      if (v == null) v = "—";
      else if (typeof v === "object") v = JSON.stringify(v, null, 1);
      else if (/_at$/.test(k)) v = `${v} (${ago(v)})`;
      return [h("dt", {}, k.replaceAll("_", " ")), h("dd", {}, String(v))];
    }));
  }
  function showExpiry(iso) {
    const el = $("#d-expiry");
    el.hidden = !iso;
    if (!iso) return;
    const past = new Date(iso).getTime() <= Date.now();
    el.classList.toggle("expired", past);
    el.textContent = past
      ? `Expired ${fullDate(iso)} (${ago(iso)}): recall no longer returns it.`
      : `Expires ${fullDate(iso)} (${ago(iso)}).`;
  }
  // Unsaved edits go only with the user's say-so.
  function confirmDiscard() {
    return !current || !$("#detail").open || !Object.keys(detailChanges()).length
      || window.confirm("Discard your unsaved changes to this memory?");
  }

  function showImportance() {
    const v = Number($("#d-importance").value);
    $("#d-importance-out").textContent = `${v.toFixed(2)} · ${importance5(v)}/5`;
  }
  function showValidity(v) {
    const val = typeof v === "number" ? v : 1;
    const meter = $("#d-validity-meter");
    meter.setAttribute("aria-valuenow", String(val));
    meter.classList.toggle("low", val < 0.5);
    $("#d-validity-fill").style.width = `${clamp01(val) * 100}%`;
    $("#d-validity-text").textContent = val === 0
      ? "Invalidated: it no longer counts in recall."
      : `${val.toFixed(2)} — how far this memory is still believed true.`;
    $("#d-invalidate").textContent = val === 0 ? "Restore validity" : "Invalidate";
  }

  function detailChanges() {
    const f = {};
    const content = $("#d-content").value;
    if (content !== filled.content) f.content = content;
    for (const k of ["kind", "scope", "status"]) if ($(`#d-${k}`).value !== current[k]) f[k] = $(`#d-${k}`).value;
    const sid = $("#d-scope_id").value.trim() || null;
    if (sid !== (current.scope_id || null)) f.scope_id = sid;
    const tags = parseTags($("#d-tags").value);
    if (!sameList(tags, current.tags || [])) f.tags = tags;
    if ($("#d-importance").value !== filled.importance) f.importance = Number($("#d-importance").value);
    const star = $("#d-important").checked;
    if (star !== !!current.user_marked_important) f.user_marked_important = star;
    return f;
  }

  function clearErrors(which) {
    const root = which === "detail" ? $("#detail") : $("#add");
    for (const el of $$("[aria-invalid]", root)) el.removeAttribute("aria-invalid");
    for (const el of $$(".field-error", root)) { el.hidden = true; el.textContent = ""; }
    const box = which === "detail" ? $("#detail-error") : $("#add-error");
    box.hidden = true;
    box.textContent = "";
  }
  // Show a problem+json error: a summary naming the field, and the message beside that field when it is on screen.
  function showError(which, err) {
    const box = which === "detail" ? $("#detail-error") : $("#add-error");
    const field = err instanceof ApiError ? err.field : null;
    box.replaceChildren(
      h("strong", {}, err instanceof ApiError ? err.title : "Error"),
      field ? h("span", {}, " — ", h("code", {}, field), `: ${err.detail}`) : h("span", {}, ` — ${err.detail || err.message}`));
    box.hidden = false;
    if (!field) return;
    const name = field.split(".")[0].replace(/^context$/, "content");
    const input = $(`#${which === "detail" ? "d" : "a"}-${name === "user_marked_important" ? "important" : name}`);
    const msg = $(`#err-${name}`);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
    if (msg && which === "detail") {
      msg.textContent = `${field}: ${err.detail}`;
      msg.hidden = false;
    }
  }

  async function saveDetail(extra) {
    if (!current) return;
    clearErrors("detail");
    const changes = extra || detailChanges();
    if (!Object.keys(changes).length) {
      toast("Nothing to save: no field changed.");
      return;
    }
    const btn = $("#d-save");
    btn.disabled = true;
    try {
      const rec = await v1.patch(current.id, changes);
      fillDetail(rec);
      refreshEverywhere(rec);
      toast(extra && "validity_score" in extra
        ? (rec.validity_score === 0 ? "Memory invalidated." : "Validity restored.")
        : `Saved ${Object.keys(changes).join(", ").replaceAll("_", " ")}.`);
      $("#detail-form").dataset.saved = String(Date.now());
      if ("status" in changes) { loadReviewCount(); if (view === "review") loadReview(); }
    } catch (err) {
      showError("detail", err);
    } finally {
      btn.disabled = false;
    }
  }

  function setupDetail() {
    const dlg = $("#detail");
    // The browser gives focus back to the opener on close; if an edit redrew that opener, focus its new copy.
    dlg.addEventListener("close", () => setTimeout(() => {
      if (current && (document.activeElement === document.body || !document.activeElement)) {
        const again = $(`[data-id="${CSS.escape(current.id)}"] .linklike`);
        if (again) again.focus();
      }
    }));
    $("#detail-form").addEventListener("submit", (e) => { e.preventDefault(); saveDetail(); });
    $("#d-importance").addEventListener("input", showImportance);
    $("#d-edit-text").addEventListener("click", toggleEditText);
    $("#d-invalidate").addEventListener("click", () => {
      if (!current) return;
      saveDetail({ validity_score: current.validity_score === 0 ? 1 : 0 });
    });
    let armed = null;
    $("#d-delete").addEventListener("click", async (e) => {
      const btn = e.currentTarget;
      if (!armed) {
        btn.textContent = "Click again to delete";
        armed = setTimeout(() => { armed = null; btn.textContent = "Delete"; }, 4000);
        return;
      }
      clearTimeout(armed);
      armed = null;
      btn.textContent = "Delete";
      try {
        const answer = await v1.remove(current.id);
        const gone = CSS.escape(current.id);
        const copies = $$(`[data-id="${gone}"], [data-parent="${gone}"]`);
        // Focus goes on to the next memory of the list the deleted one was opened from, not to the page's top.
        const opener = copies.find((li) => li.getClientRects().length > 0);
        let next = opener ? opener.nextElementSibling : null;
        while (next && (copies.includes(next) || !next.getClientRects().length)) next = next.nextElementSibling;
        for (const li of copies) if (li.dataset.render === "concept") refreshConceptItem(li, { ...current, tags: [] });
        for (const li of copies) li.remove();
        const hadHits = searchState.hits.length;
        searchState.hits = searchState.hits.filter((x) => x.memory.id !== current.id && x.memory.parent_id !== current.id);
        if (searchState.hits.length !== hadHits) summarize();
        dlg.close();
        ((next && $(".linklike, button", next)) || (view === "search" ? $("#q") : $("#main"))).focus();
        // The other views count what they list: read again, so no count still holds the deleted memory.
        if (view === "review") { if (!$("#review-list .review-item")) loadReview(); else syncBulk(); }
        else if (view === "timeline" || view === "tags") loaders[view]();
        // What a delete cannot reach, as the server says it: copies made before (backups, exports) keep the text.
        toast(answer && answer.note ? `Memory deleted: ${answer.note}.` : "Memory deleted.", { ms: 9000 });
        loadReviewCount();
      } catch (err) {
        showError("detail", err);
      }
    });
    for (const input of $$("#detail-form .input, #detail-form input")) {
      input.addEventListener("input", () => {
        input.removeAttribute("aria-invalid");
      });
    }
  }

  // Dialogs: every [data-close] button closes its dialog; a click on the backdrop too. The drawer asks first
  // when it holds unsaved edits, on Esc as well.
  function setupDialogs() {
    for (const dlg of $$("dialog")) {
      const mayClose = () => dlg.id !== "detail" || confirmDiscard();
      const close = () => { if (mayClose()) dlg.close(); };
      for (const b of $$("[data-close]", dlg)) b.addEventListener("click", close);
      dlg.addEventListener("click", (e) => { if (e.target === dlg) close(); });
      dlg.addEventListener("cancel", (e) => { if (!mayClose()) e.preventDefault(); });
      dlg.addEventListener("close", () => { if (dlg.contains($("#toasts"))) document.body.append($("#toasts")); });
    }
  }

  // ---- add memory -----------------------------------------------------------------------------------------------
  function openAdd() {
    const dlg = $("#add");
    clearErrors("add");
    $("#add-result").hidden = true;
    if (!dlg.open) dlg.showModal();
    $("#a-content").focus();
  }
  // The answer to a save may come after the user closed, reopened and typed in the form again: clear only the
  // fields that still hold what was sent (overrides included, so they never carry over to the next memory).
  const ADD_FIELDS = ["#a-content", "#a-importance", "#a-category", "#a-tags"];
  function addFields() { return ADD_FIELDS.map((sel) => $(sel).value); }
  function resetAdd(sent) {
    ADD_FIELDS.forEach((sel, i) => { if ($(sel).value === sent[i]) $(sel).value = ""; });
  }
  // A new memory may restate an older one with another date, number or time, or a "not" (store_memory's
  // suggested_updates): offer to keep the new one and mark the older superseded. Nothing is replaced unasked.
  let updateSeq = 0;
  function suggestUpdates(newId, ids) {
    if (!ids.length) return null;
    const list = h("ul", { class: "updates", "aria-label": "Older memories this one may update", hidden: true });
    // Filled when the older memories are read; a later save replaces the box, and this list with it.
    Promise.all(ids.map((id) => v1.get(id).catch((err) => { toastError(err); return null; }))).then((recs) => {
      const items = recs.filter(Boolean).map((rec) => updateItem(newId, rec));
      list.append(...items);
      list.hidden = !items.length;
    });
    return list;
  }
  function updateItem(newId, old) {
    const textId = `update-old-${++updateSeq}`;
    const btn = h("button", { type: "button", class: "btn small", "aria-describedby": textId }, "Replace it");
    const actions = h("div", { class: "row" }, btn);
    const li = h("li", { class: "update", dataset: { memory: old.id } },
      h("p", { class: "update-lead" }, "This may update an older memory:"),
      h("p", { class: "update-old", id: textId }, old.content),
      h("time", { class: "update-date", datetime: old.created_at, title: fullDate(old.created_at) },
        `${old.created_at ? new Date(old.created_at).toLocaleDateString(undefined, { dateStyle: "medium" }) : "date unknown"} · ${ago(old.created_at)}`),
      actions);
    const changed = () => {
      Promise.all([v1.get(newId), v1.get(old.id)]).then((recs) => recs.forEach(refreshEverywhere), () => {});
      if (view === "search" && !searchState.query) loadBrowse();
      if (view === "review") loadReview(); else loadReviewCount();
    };
    const undo = async (operationId) => {
      try {
        await v1.tool("rollback", { operation_id: operationId });
        toast("Undone: the older memory is back.");
        btn.disabled = false;
        actions.replaceChildren(btn);
        if (li.isConnected && $("#add").open) btn.focus();
        changed();
      } catch (err) {
        toastError(err);
      }
    };
    btn.addEventListener("click", async () => {
      btn.disabled = true;
      try {
        const out = await v1.tool("merge_memories", { ids: [newId, old.id], into: newId });
        const note = h("p", { class: "update-done", tabindex: "-1" }, "Replaced: the older memory is now superseded.");
        actions.replaceChildren(note);
        note.focus();
        toast("The older memory is now superseded.", { action: { label: "Undo", run: () => undo(out.operation_id) } });
        changed();
      } catch (err) {
        btn.disabled = false;
        toastError(err);
      }
    });
    return li;
  }
  function piiNote(p) {
    const kinds = p && Array.isArray(p.kinds) ? p.kinds : [];
    if (!kinds.length) return null;
    return h("p", { class: "pii-note" }, p.redacted ? `Personal data redacted: ${kinds.join(", ")}.` : `Holds personal data: ${kinds.join(", ")}.`);
  }
  function setupAdd() {
    $("#add-open").addEventListener("click", openAdd);
    $("#add-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      clearErrors("add");
      const content = $("#a-content").value;
      if (!content.trim()) {
        showError("add", new ApiError(400, { title: "Invalid input", field: "content", detail: "write something to remember" }));
        return;
      }
      const sent = addFields();
      const context = {};
      if ($("#a-importance").value) context.force_importance = Number($("#a-importance").value);
      if ($("#a-category").value) context.force_category = $("#a-category").value;
      const tags = parseTags($("#a-tags").value);
      if (tags.length) context.additional_tags = tags;
      const btn = $("#a-save");
      btn.disabled = true;
      try {
        const out = await v1.store(content, Object.keys(context).length ? context : undefined);
        const a = out.analysis || {};
        const box = $("#add-result");
        const heading = out.outcome === "duplicate" ? "Already remembered" : out.outcome === "merged" ? "Merged into an existing memory" : "Remembered";
        box.replaceChildren(...[
          h("h3", {}, heading),
          h("p", {}, `Kind ${a.kind || "?"} · category ${a.detected_category || "uncategorised"} · importance ${a.importance_score ?? "?"}/5`),
          (a.generated_tags || []).length ? h("div", { class: "chips add-tags" },
            a.generated_tags.map((t) => h("span", { class: "chip tag" }, t))) : null,
          piiNote(a.pii),
          h("div", { class: "row add-actions" },
            h("button", { type: "button", class: "btn small", onclick: () => { $("#add").close(); openDetail(out.memory_id); } }, "Open it")),
          // replaceChildren, unlike append, writes a null as the text "null": only the parts there are.
          suggestUpdates(out.memory_id, ((out.recommendations || {}).suggested_updates || []).slice(0, 3))].filter(Boolean));
        box.hidden = false;
        resetAdd(sent);
        if (!$("#add").open) toast(`${heading}: “${content.length > 60 ? `${content.slice(0, 57)}…` : content}”`);
        $("#welcome").hidden = true;
        if (view === "search" && !searchState.query) loadBrowse();
        loadReviewCount();
      } catch (err) {
        showError("add", err);
      } finally {
        btn.disabled = false;
      }
    });
  }

  // ---- review queue ---------------------------------------------------------------------------------------------
  function updateBadge(stats) {
    const n = (stats && stats.by_status && stats.by_status.pending) || 0;
    const badge = $("#review-badge");
    badge.textContent = String(n);
    badge.hidden = n === 0;
    badge.setAttribute("aria-label", `${n} pending`);
    // The queue's own count follows the badge after each decision (an emptied queue says so itself).
    if ($("#review-list .review-item")) $("#review-status").textContent = pendingText(n);
  }
  const pendingText = (n, more = false) => `${n}${more ? "+" : ""} pending ${n === 1 ? "memory" : "memories"}.`;
  async function loadReviewCount() {
    try { updateBadge(await v1.stats()); } catch { /* shown elsewhere */ }
  }

  function reviewCard(m) {
    remember([m]);
    const editor = h("div", { class: "review-editor", hidden: true },
      h("label", { class: "sr-only", for: `edit-${m.id}` }, "Edit content"),
      h("textarea", { class: "input", id: `edit-${m.id}`, rows: 3 }),
      h("p", { class: "field-error", hidden: true }),
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn primary small", dataset: { act: "save" } }, "Save"),
        h("button", { type: "button", class: "btn small", dataset: { act: "cancel" } }, "Cancel")));
    const content = h("p", { class: "content" }, m.content);
    const li = h("li", { class: "card review-item", dataset: { id: m.id, render: "review" } },
      h("div", { class: "review-top" },
        h("input", { type: "checkbox", class: "review-pick", "aria-label": `Select: ${m.content.slice(0, 60)}` }),
        content),
      h("p", { class: "reason" }, h("strong", {}, "Waiting: "), waitReason(m)),
      metaRow(m, { tags: 8 }), editor,
      h("div", { class: "review-actions", role: "group", "aria-label": "Review actions" },
        h("button", { type: "button", class: "btn ok", dataset: { act: "approve" } }, "Approve"),
        h("button", { type: "button", class: "btn danger-outline", dataset: { act: "reject" } }, "Reject"),
        h("button", { type: "button", class: "btn", dataset: { act: "edit" }, "aria-expanded": "false" }, "Edit"),
        h("button", { type: "button", class: "btn ghost", dataset: { act: "open" } }, "Details")));
    const textarea = $("textarea", editor);
    const errEl = $(".field-error", editor);

    li.addEventListener("click", async (e) => {
      const btn = e.target instanceof Element ? e.target.closest("button[data-act]") : null;
      if (!btn) return;
      const act = btn.dataset.act;
      if (act === "approve" || act === "reject") {
        await decide(m, act === "approve" ? "approved" : "rejected", li);
      } else if (act === "edit") {
        const opening = editor.hidden;
        editor.hidden = !opening;
        btn.setAttribute("aria-expanded", String(opening));
        if (opening) { textarea.value = m.content; textarea.focus(); }
      } else if (act === "cancel") {
        editor.hidden = true;
        $("[data-act=edit]", li).setAttribute("aria-expanded", "false");
        $("[data-act=edit]", li).focus();
      } else if (act === "save") {
        errEl.hidden = true;
        textarea.removeAttribute("aria-invalid");
        try {
          const rec = await v1.patch(m.id, { content: textarea.value });
          Object.assign(m, rec);
          content.textContent = rec.content;
          editor.hidden = true;
          $("[data-act=edit]", li).setAttribute("aria-expanded", "false");
          toast("Content updated; still pending review.");
          $("[data-act=approve]", li).focus();
        } catch (err) {
          errEl.textContent = err instanceof ApiError && err.field ? `${err.field}: ${err.detail}` : err.message;
          errEl.hidden = false;
          textarea.setAttribute("aria-invalid", "true");
          textarea.focus();
        }
      } else if (act === "open") {
        openDetail(m.id);
      }
    });
    return li;
  }

  // Why a memory waits for a person: the reason written when it was queued, else what the record shows (the
  // extraction's confidence, personal data found).
  function waitReason(m) {
    const meta = m.metadata || {};
    if (typeof meta.review_reason === "string" && meta.review_reason) return meta.review_reason;
    const parts = [];
    const { kept } = piiKinds(meta);
    if (kept.length) parts.push(`holds personal data: ${kept.join(", ")}`);
    const conf = meta.candidate && typeof meta.candidate.confidence === "number" ? meta.candidate.confidence : null;
    if (conf != null) parts.push(`extracted from a conversation with confidence ${conf.toFixed(2)}`);
    return parts.length ? parts.join("; ") : "marked pending: it counts in recall only once approved";
  }

  // Bulk decisions: the checked cards, decided in one request.
  function picked() { return $$("#review-list .review-pick:checked").map((c) => c.closest(".review-item")); }
  function syncBulk() {
    const all = $$("#review-list .review-pick");
    const n = picked().length;
    $("#review-bulk").hidden = all.length === 0;
    $("#review-selected").textContent = n ? `${n} selected` : "None selected";
    $("#review-approve").disabled = $("#review-reject").disabled = n === 0;
    $("#review-approve").textContent = n ? `Approve ${n}` : "Approve selected";
    $("#review-reject").textContent = n ? `Reject ${n}` : "Reject selected";
    const box = $("#review-all");
    box.checked = n > 0 && n === all.length;
    box.indeterminate = n > 0 && n < all.length;
  }
  async function decideMany(action) {
    const items = picked();
    const ids = items.map((li) => li.dataset.id);
    if (!ids.length) return;
    const buttons = [$("#review-approve"), $("#review-reject")];
    for (const b of buttons) b.disabled = true;
    try {
      const out = await v1.review(action, ids);
      for (const li of items) li.remove();
      // The queue lists its first 100: emptied, it is read again, as more may wait behind them.
      if (!$("#review-list .review-item")) loadReview();
      const n = out.reviewed;
      toast(`${action === "approve" ? "Approved" : "Rejected"} ${n} ${n === 1 ? "memory" : "memories"}.`, {
        action: { label: "Undo", run: async () => {
          try {
            await Promise.all(out.ids.map((id) => v1.patch(id, { status: "pending" })));
            loadReview();
          } catch (err) { toastError(err); }
        } },
      });
      loadReviewCount();
      $("#main").focus();
    } catch (err) {
      toastError(err);
    } finally {
      syncBulk();
    }
  }
  function setupReview() {
    $("#review-list").addEventListener("change", (e) => { if (e.target.matches(".review-pick")) syncBulk(); });
    $("#review-all").addEventListener("change", (e) => {
      for (const c of $$("#review-list .review-pick")) c.checked = e.target.checked;
      syncBulk();
    });
    $("#review-approve").addEventListener("click", () => decideMany("approve"));
    $("#review-reject").addEventListener("click", () => decideMany("reject"));
    loaders.review = loadReview;
  }

  async function decide(m, status, li) {
    for (const b of $$("button", li)) b.disabled = true;
    try {
      await v1.patch(m.id, { status });
      const next = li.nextElementSibling || li.previousElementSibling;
      li.classList.add("leaving");
      setTimeout(() => {
        li.remove();
        syncBulk();
        if (!$("#review-list").children.length) loadReview();
        const target = next && next.isConnected ? $("[data-act=approve]", next) : null;
        if (target) target.focus(); else $("#main").focus();
      }, reduceMotion ? 0 : 250);
      toast(status === "approved" ? "Approved: it now counts in recall." : "Rejected.", {
        action: { label: "Undo", run: async () => { try { await v1.patch(m.id, { status: "pending" }); loadReview(); } catch (err) { toastError(err); } } },
      });
      loadReviewCount();
    } catch (err) {
      for (const b of $$("button", li)) b.disabled = false;
      toastError(err);
    }
  }
  function renderReviewEmpty() {
    $("#review-list").replaceChildren(emptyState("Nothing waiting for review. Memories marked pending show up here."));
    $("#review-status").textContent = "The queue is empty.";
    syncBulk();
  }
  async function loadReview() {
    const status = $("#review-status");
    status.classList.remove("error");
    try {
      const data = await v1.list({ status: "pending", limit: 100 });
      const rows = data.memories || [];
      if (!rows.length) { renderReviewEmpty(); return; }
      status.textContent = pendingText(rows.length, !!data.next_cursor);
      $("#review-list").replaceChildren(...rows.map(reviewCard));
      syncBulk();
    } catch (err) {
      status.textContent = `Could not load the review queue — ${err.message}`;
      status.classList.add("error");
    }
    loadReviewCount();
  }

  // ---- timeline ---------------------------------------------------------------------------------------------------
  let chart = null;
  let granularity = "day";

  // The API lists only periods that have memories: fill the gaps with zeros so the axis is true to time.
  function fillGaps(periods, g) {
    if (periods.length < 2) return periods;
    const byKey = new Map(periods.map((p) => [p.period, p]));
    const keys = periods.map((p) => p.period).sort();
    const out = [];
    const first = keys[0];
    const last = keys[keys.length - 1];
    const step = (key) => {
      if (g === "year") return String(Number(key) + 1);
      if (g === "month") {
        const [y, mo] = key.split("-").map(Number);
        return mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, "0")}`;
      }
      const d = new Date(`${key}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + 1);
      return d.toISOString().slice(0, 10);
    };
    let k = first;
    for (let i = 0; i < 1500 && k <= last; i++) {
      out.push(byKey.get(k) || { period: k, count: 0, memories: [] });
      k = step(k);
    }
    return k > last ? out : periods; // too long a span: keep the sparse list
  }

  function periodLabel(key, g) {
    if (g === "day") return new Date(`${key}T00:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
    if (g === "month") return new Date(`${key}-01T00:00:00Z`).toLocaleDateString(undefined, { month: "short", year: "numeric", timeZone: "UTC" });
    return key;
  }

  async function loadTimeline() {
    const status = $("#timeline-status");
    status.classList.remove("error");
    let data;
    try {
      data = await v1.tool("memory_timeline", { granularity });
    } catch (err) {
      status.textContent = `Could not load the timeline — ${err.message}`;
      status.classList.add("error");
      return;
    }
    const periods = fillGaps([...(data.periods || [])].sort((a, b) => (a.period < b.period ? -1 : 1)), granularity);
    const nonEmpty = periods.filter((p) => p.count > 0);
    const busiest = nonEmpty.reduce((a, b) => (b.count > (a ? a.count : -1) ? b : a), null);
    status.textContent = nonEmpty.length
      ? `${data.total} memories over ${nonEmpty.length} ${granularity}${nonEmpty.length === 1 ? "" : "s"}; busiest ${periodLabel(busiest.period, granularity)} (${busiest.count}).`
      : "No memories yet.";
    renderPeriods(nonEmpty);
    const canvas = $("#timeline-chart");
    if (chart) { chart.destroy(); chart = null; }
    if (!window.Chart) {
      status.textContent += " (chart library unavailable: showing the list only)";
      return;
    }
    const accent = cssVar("--accent");
    const muted = cssVar("--muted");
    const grid = cssVar("--border");
    chart = new window.Chart(canvas, {
      type: "bar",
      data: {
        labels: periods.map((p) => periodLabel(p.period, granularity)),
        datasets: [{
          label: "Memories created", data: periods.map((p) => p.count), backgroundColor: accent,
          hoverBackgroundColor: cssVar("--c-usage"), borderRadius: 6, maxBarThickness: 44, minBarLength: 2,
        }],
      },
      options: {
        responsive: true, maintainAspectRatio: false,
        animation: reduceMotion ? false : { duration: 350 },
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { footer: (items) => { const p = periods[items[0].dataIndex]; return p.memories && p.memories[0] ? `“${p.memories[0].content.slice(0, 60)}”` : ""; } } },
        },
        scales: {
          x: { grid: { display: false }, ticks: { color: muted, maxRotation: 0, autoSkip: true, autoSkipPadding: 12 } },
          y: { beginAtZero: true, ticks: { color: muted, precision: 0 }, grid: { color: grid }, border: { display: false } },
        },
        onClick: (_e, els) => {
          if (!els.length) return;
          const p = periods[els[0].index];
          const det = $(`#periods details[data-period="${CSS.escape(p.period)}"]`);
          if (det) { det.open = true; det.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "nearest" }); $("summary", det).focus(); }
        },
      },
    });
    canvas.dataset.ready = "1";
    canvas.setAttribute("aria-label", `Bar chart: memories created per ${granularity}. ${status.textContent}`);
  }

  function renderPeriods(nonEmpty) {
    const box = $("#periods");
    if (!nonEmpty.length) { box.replaceChildren(h("p", { class: "empty" }, "Nothing to show yet.")); return; }
    const max = Math.max(...nonEmpty.map((p) => p.count));
    const newest = [...nonEmpty].reverse().slice(0, 60);
    box.replaceChildren(...newest.map((p, i) => h("details", { class: "card period", dataset: { period: p.period }, open: i === 0 },
      h("summary", {},
        h("span", { class: "period-name" }, periodLabel(p.period, granularity)),
        h("span", { class: "period-bar", "aria-hidden": "true" }, h("span", { style: { width: `${(p.count / max) * 100}%` } })),
        h("span", { class: "count" }, `${p.count} ${p.count === 1 ? "memory" : "memories"}`)),
      h("ul", {}, (p.memories || []).map((m) => h("li", { dataset: { id: m.id } },
        h("button", { type: "button", class: "linklike", onclick: () => openDetail(m.id) }, h("span", { class: "clamp" }, preview(m.content)))))),
    )));
  }

  function setupTimeline() {
    for (const b of $$("#granularity button")) {
      b.addEventListener("click", () => {
        granularity = b.dataset.g;
        for (const o of $$("#granularity button")) o.setAttribute("aria-pressed", String(o === b));
        loadTimeline();
      });
    }
    loaders.timeline = loadTimeline;
  }

  // ---- concept network ------------------------------------------------------------------------------------------
  let cy = null;
  let concepts = [];
  const LABEL_WIDTH = 130; // px at zoom 1: a label's widest
  const LEGIBLE = 0.75; // the least zoom the graph opens at: under it its 12 px labels are too small to read

  async function loadConcepts() {
    const status = $("#concepts-status");
    status.classList.remove("error");
    status.textContent = "Loading…";
    let data;
    try {
      data = await v1.tool("concept_network", {});
    } catch (err) {
      status.textContent = `Could not load the concept network — ${err.message}`;
      status.classList.add("error");
      return;
    }
    const nodes = data.nodes || [];
    const ids = new Set(nodes.map((n) => n.id));
    const edges = (data.edges || []).filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target);
    concepts = nodes.map((n) => ({ id: n.id, usage: n.usage_count || 0,
      degree: edges.filter((e) => e.source === n.id || e.target === n.id).length }));
    renderConceptList();
    clearConcept();
    status.textContent = nodes.length
      ? `${nodes.length} concepts, ${edges.length} links`
      : "No concepts yet: tags appear as memories are added.";
    const container = $("#graph");
    if (cy) { cy.destroy(); cy = null; }
    container.dataset.nodes = String(nodes.length);
    if (!window.cytoscape || !nodes.length) {
      if (!window.cytoscape) status.textContent += " (graph library unavailable: the list is on the side)";
      return;
    }
    const usages = concepts.map((c) => c.usage);
    const lo = Math.min(...usages);
    const hi = Math.max(...usages);
    const maxW = Math.max(1, ...edges.map((e) => (e.kind === "co-occurrence" ? e.weight : 1)));
    const size = (u) => 20 + 44 * Math.sqrt(hi > lo ? (u - lo) / (hi - lo) : 0.3);
    const text = cssVar("--text");
    const surface = cssVar("--surface");
    const accent = cssVar("--accent");
    const muted = cssVar("--muted");
    cy = window.cytoscape({
      container,
      elements: [
        ...concepts.map((c) => ({ data: { id: c.id, label: c.id, usage: c.usage, size: size(c.usage) } })),
        ...edges.map((e, i) => ({ data: { id: `e${i}`, source: e.source, target: e.target, kind: e.kind,
          w: e.kind === "co-occurrence" ? 1 + 4 * (e.weight / maxW) : 1.2 } })),
      ],
      style: [
        { selector: "node", style: {
          width: "data(size)", height: "data(size)", "background-color": accent, "background-opacity": 0.85,
          label: "data(label)", color: text, "font-size": 12, "font-family": "system-ui, sans-serif", "font-weight": 600,
          "text-valign": "bottom", "text-margin-y": 4, "text-outline-color": surface, "text-outline-width": 2.5,
          "min-zoomed-font-size": 5, "border-width": 2, "border-color": surface,
          // A long tag ends in an ellipsis (whole in the list and on selection) instead of running over its
          // neighbours' labels.
          "text-wrap": "ellipsis", "text-max-width": LABEL_WIDTH,
        } },
        { selector: "node:selected", style: { "text-wrap": "none", "z-index": 10 } },
        { selector: "edge", style: {
          width: "data(w)", "line-color": muted, opacity: 0.45, "curve-style": "haystack",
        } },
        { selector: "edge[kind = 'similarity']", style: { "line-style": "dashed", "curve-style": "straight" } },
        { selector: "node:selected", style: { "background-color": cssVar("--c-usage"), "border-color": text } },
        { selector: ".faded", style: { opacity: 0.15 } },
        { selector: "edge.hl", style: { opacity: 0.9, "line-color": accent } },
      ],
      layout: { name: "preset" },
      minZoom: 0.15,
      maxZoom: 4,
      boxSelectionEnabled: false,
    });
    cy.on("tap", "node", (e) => selectConcept(e.target.id(), { fromGraph: true }));
    cy.on("tap", (e) => { if (e.target === cy) clearConcept(); });
    arrange(false);
    container.dataset.ready = "1";
  }
  // The same concepts are laid out the same way on every visit: the layout starts from a grid in the list's
  // order, not from random places ("Re-layout" asks for another arrangement).
  function arrange(randomize) {
    const nodes = cy.nodes().toArray();
    if (!randomize) {
      const cols = Math.ceil(Math.sqrt(nodes.length));
      nodes.forEach((n, i) => n.position({ x: (i % cols) * 120, y: Math.floor(i / cols) * 60 }));
    }
    cy.layout(layoutOptions(randomize)).run();
    separateLabels(nodes);
    cy.fit(undefined, 30);
    // A graph too big to read whole in its box opens at a legible zoom on its busiest concept ("Fit" shows all).
    if (cy.zoom() < LEGIBLE && nodes.length) {
      const busiest = nodes.reduce((a, b) => (b.data("usage") > a.data("usage") ? b : a));
      cy.zoom(LEGIBLE);
      cy.center(busiest);
    }
  }
  // What the layout left overlapping (a label is wider than its node): pushed apart up and down, a few rounds.
  function separateLabels(nodes) {
    if (nodes.length > 400) return;
    for (let round = 0; round < 20; round++) {
      const boxes = nodes.map((n) => n.boundingBox({ includeLabels: true, includeEdges: false }));
      let moved = false;
      for (let i = 0; i < nodes.length; i++) {
        for (let j = i + 1; j < nodes.length; j++) {
          const a = boxes[i];
          const b = boxes[j];
          if (a.x1 >= b.x2 || b.x1 >= a.x2 || a.y1 >= b.y2 || b.y1 >= a.y2) continue;
          const push = (Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1)) / 2 + 2;
          const up = a.y1 + a.y2 <= b.y1 + b.y2 ? -1 : 1;
          nodes[i].shift({ x: 0, y: up * push });
          nodes[j].shift({ x: 0, y: -up * push });
          boxes[i] = nodes[i].boundingBox({ includeLabels: true, includeEdges: false });
          boxes[j] = nodes[j].boundingBox({ includeLabels: true, includeEdges: false });
          moved = true;
        }
      }
      if (!moved) return;
    }
  }
  function layoutOptions(randomize) {
    // Labels count as part of their node, so the layout keeps them apart too.
    return { name: "cose", animate: false, randomize, fit: false, padding: 30, nodeDimensionsIncludeLabels: true,
      nodeRepulsion: () => 8000, idealEdgeLength: () => 40, edgeElasticity: () => 80, nodeOverlap: 10,
      componentSpacing: 60, gravity: 2, numIter: 1000 };
  }

  function renderConceptList() {
    const filter = $("#concept-filter").value.trim().toLowerCase();
    const rows = concepts.filter((c) => !filter || c.id.includes(filter)).slice(0, 200);
    const list = $("#concept-list");
    list.replaceChildren(...(rows.length ? rows.map((c) => h("li", {},
      h("button", { type: "button", dataset: { concept: c.id }, onclick: () => selectConcept(c.id) },
        h("span", { class: "name" }, c.id),
        h("span", { class: "n", title: "memories tagged" }, c.usage)))) : [emptyState(concepts.length ? "No concept matches." : "No concepts yet.")]));
  }

  async function selectConcept(id, { fromGraph = false } = {}) {
    const c = concepts.find((x) => x.id === id);
    if (!c) return;
    for (const b of $$("#concept-list button")) b.setAttribute("aria-current", String(b.dataset.concept === id));
    $("#concept-detail").hidden = false;
    $("#concept-name").textContent = id;
    let neighbours = [];
    if (cy) {
      const node = cy.getElementById(id);
      cy.elements().removeClass("faded hl");
      cy.$(":selected").unselect();
      node.select();
      const hood = node.closedNeighborhood();
      cy.elements().not(hood).addClass("faded");
      hood.edges().addClass("hl");
      neighbours = node.neighborhood("node").map((n) => n.id());
      if (!fromGraph) cy.animate({ center: { eles: node }, zoom: Math.max(cy.zoom(), 1.1) }, { duration: reduceMotion ? 0 : 300 });
    }
    showConceptMeta(c);
    $("#concept-neighbours").replaceChildren(...neighbours.slice(0, 24).map((n) =>
      h("button", { type: "button", class: "chip tag", onclick: () => selectConcept(n) }, n)));
    const list = $("#concept-memories");
    list.replaceChildren(h("li", {}, "Loading…"));
    try {
      const data = await v1.list({ tag: id, limit: 20 });
      const rows = data.memories || [];
      remember(rows);
      list.replaceChildren(...(rows.length ? rows.map((m) => h("li", { dataset: { id: m.id, render: "concept" } }, openButton(m)))
        : [h("li", {}, "No memory carries this tag now.")]));
    } catch (err) {
      list.replaceChildren(h("li", {}, `Could not load memories — ${err.message}`));
    }
  }
  function showConceptMeta(c) {
    $("#concept-meta").textContent = `${c.usage} ${c.usage === 1 ? "memory" : "memories"} · ${c.degree} link${c.degree === 1 ? "" : "s"}`;
  }
  // A memory edited from a concept's list: redrawn, or dropped from the list (and its count) once it no longer
  // carries the concept's tag.
  function refreshConceptItem(li, rec) {
    const c = concepts.find((x) => x.id === $("#concept-name").textContent);
    if (!c || (rec.tags || []).includes(c.id)) { li.replaceChildren(openButton(rec)); return; }
    li.remove();
    c.usage = Math.max(0, c.usage - 1);
    showConceptMeta(c);
    renderConceptList();
    for (const b of $$("#concept-list button")) b.setAttribute("aria-current", String(b.dataset.concept === c.id));
  }
  function clearConcept() {
    $("#concept-detail").hidden = true;
    for (const b of $$("#concept-list button")) b.removeAttribute("aria-current");
    if (cy) { cy.elements().removeClass("faded hl"); cy.$(":selected").unselect(); }
  }

  function setupConcepts() {
    const zoomBy = (f) => { if (cy) cy.zoom({ level: cy.zoom() * f, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } }); };
    $("#g-zoom-in").addEventListener("click", () => zoomBy(1.25));
    $("#g-zoom-out").addEventListener("click", () => zoomBy(0.8));
    $("#g-fit").addEventListener("click", () => cy && cy.fit(undefined, 30));
    $("#g-layout").addEventListener("click", () => cy && arrange(true));
    $("#concept-clear").addEventListener("click", clearConcept);
    $("#concept-filter").addEventListener("input", renderConceptList);
    loaders.concepts = loadConcepts;
  }

  // ---- tags ------------------------------------------------------------------------------------------------------
  let tagRows = [];
  async function loadTags() {
    const status = $("#tags-status");
    status.classList.remove("error");
    try {
      tagRows = (await v1.tags()).tags || [];
      status.textContent = tagRows.length ? `${tagRows.length} tag${tagRows.length === 1 ? "" : "s"}.` : "";
      $("#tag-names").replaceChildren(...tagRows.map((t) => h("option", { value: t.name })));
      renderTags();
    } catch (err) {
      status.textContent = `Could not load the tags — ${err.message}`;
      status.classList.add("error");
    }
    loadMergePreview();
  }
  function renderTags() {
    const filter = $("#tag-filter").value.trim().toLowerCase();
    const rows = tagRows.filter((t) => !filter || t.name.includes(filter)).slice(0, 300);
    const max = Math.max(1, ...tagRows.map((t) => t.count));
    $("#tag-list").replaceChildren(...(rows.length ? rows.map((t) => tagRow(t, max))
      : [emptyState(tagRows.length ? "No tag matches." : "No tags yet: memories are tagged as they are added.")]));
  }
  function tagRow(t, max) {
    const li = h("li", { class: "tag-row", dataset: { tag: t.name } });
    const bar = h("span", { class: "tag-bar", "aria-hidden": "true" }, h("span", { style: { width: `${(t.count / max) * 100}%` } }));
    const view = () => li.replaceChildren(
      h("button", { type: "button", class: "chip tag tag-name", title: "Show its memories", onclick: () => {
        $("#f-tag").value = t.name; $("#q").value = ""; show("search"); runSearch();
      } }, t.name),
      bar,
      h("span", { class: "n", title: "memories carrying it" }, t.count),
      h("button", { type: "button", class: "btn small", "aria-label": `Rename or merge ${t.name}`, onclick: edit }, "Rename"));
    function edit() {
      const inputId = `rename-${t.name}`;
      const input = h("input", { id: inputId, class: "input", type: "text", value: t.name, list: "tag-names", autocomplete: "off" });
      const note = h("p", { class: "help rename-note", "aria-live": "polite" });
      const err = h("p", { class: "field-error", hidden: true });
      const save = h("button", { type: "submit", class: "btn primary small" }, "Rename");
      const explain = () => {
        const to = input.value.trim().toLowerCase();
        const other = tagRows.find((x) => x.name === to && x.name !== t.name);
        note.textContent = other ? `Merges into “${other.name}” (${other.count} ${other.count === 1 ? "memory" : "memories"}): both become one tag.` : "";
        save.textContent = other ? "Merge" : "Rename";
      };
      input.addEventListener("input", explain);
      const form = h("form", { class: "rename-form", novalidate: true },
        h("label", { class: "sr-only", for: inputId }, `New name for ${t.name}`), input,
        save, h("button", { type: "button", class: "btn small", onclick: () => { view(); $(".tag-name", li).focus(); } }, "Cancel"),
        note, err);
      form.addEventListener("submit", async (e) => {
        e.preventDefault();
        const to = input.value.trim();
        if (!to || to.toLowerCase() === t.name) { view(); return; }
        save.disabled = true;
        err.hidden = true;
        try {
          const out = await v1.tool("rename_tag", { old: t.name, new: to });
          const name = out.new || to;
          const n = typeof out.memories === "number" ? ` on ${out.memories} ${out.memories === 1 ? "memory" : "memories"}` : "";
          toast(out.merged ? `“${t.name}” merged into “${name}”${n}.` : `“${t.name}” renamed to “${name}”${n}.`,
            out.operation_id ? { action: { label: "Undo", run: () => undo(out.operation_id, loadTags) } } : {});
          loadTags();
        } catch (e2) {
          err.textContent = e2 instanceof ApiError && e2.field ? `${e2.field}: ${e2.detail}` : e2.message;
          err.hidden = false;
          input.setAttribute("aria-invalid", "true");
          input.focus();
          save.disabled = false;
        }
      });
      li.replaceChildren(form);
      input.focus();
      input.select();
    }
    view();
    return li;
  }
  async function loadMergePreview() {
    const status = $("#merge-status");
    const list = $("#merge-list");
    status.classList.remove("error");
    status.textContent = "Looking for tags to merge…";
    try {
      const plan = await v1.tool("optimize_tags", { dry_run: true });
      const merges = plan.merges || [];
      const archived = plan.archived || [];
      list.replaceChildren(
        ...merges.map((m) => h("li", { class: "merge" },
          h("span", { class: "chip tag" }, m.tag), h("span", { class: "arrow", "aria-label": "into" }, "→"),
          h("span", { class: "chip tag" }, m.into),
          h("span", { class: "muted merge-why" }, m.why || m.reason))),
        ...(archived.length ? [h("li", { class: "merge" }, h("span", { class: "muted" },
          `Archive ${archived.length} unused tag${archived.length === 1 ? "" : "s"}: ${archived.slice(0, 12).join(", ")}${archived.length > 12 ? "…" : ""}`))] : []));
      status.textContent = merges.length || archived.length
        ? `${merges.length} merge${merges.length === 1 ? "" : "s"}, ${archived.length} to archive: ${plan.tags_before} tags would become ${plan.tags_after}.`
        : "Nothing to merge: every tag is distinct.";
      $("#merge-apply").hidden = !(merges.length || archived.length);
    } catch (err) {
      status.textContent = `Could not preview the merges — ${err.message}`;
      status.classList.add("error");
    }
  }
  async function undo(operationId, then) {
    try {
      const out = await v1.tool("rollback", { operation_id: operationId });
      toast(`Undone: ${out.restored} restored, ${out.removed} removed.`);
      if (then) then();
    } catch (err) {
      toastError(err);
    }
  }
  function setupTags() {
    $("#tag-filter").addEventListener("input", renderTags);
    $("#merge-apply").addEventListener("click", async () => {
      const btn = $("#merge-apply");
      btn.disabled = true;
      try {
        const out = await v1.tool("optimize_tags", { dry_run: false });
        toast(`Tags tidied: ${out.tags_before} → ${out.tags_after}.`, out.operation_id
          ? { action: { label: "Undo", run: () => undo(out.operation_id, loadTags) } } : {});
        loadTags();
      } catch (err) {
        toastError(err);
      } finally {
        btn.disabled = false;
      }
    });
    loaders.tags = loadTags;
  }

  // ---- data: export, import, history -----------------------------------------------------------------------------
  async function downloadExport() {
    const btn = $("#export-btn");
    const status = $("#export-status");
    status.classList.remove("error");
    btn.disabled = true;
    status.textContent = "Preparing the export…";
    try {
      const res = await v1.exportFile($("#export-vectors").checked);
      const blob = await res.blob();
      const name = (/filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") || "") || [])[1] || "engram-export.jsonl";
      const url = URL.createObjectURL(blob);
      const a = h("a", { href: url, download: name, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      const lines = (await blob.text()).split("\n").filter(Boolean).length - 1;
      status.textContent = `Downloaded ${name}: ${lines} record${lines === 1 ? "" : "s"}, ${bytes(blob.size)}.`;
      loadHistory();
    } catch (err) {
      status.textContent = `Export failed — ${err.message}`;
      status.classList.add("error");
    } finally {
      btn.disabled = false;
    }
  }
  async function runImport() {
    const file = $("#import-file").files[0];
    const status = $("#import-status");
    if (!file) return;
    const btn = $("#import-btn");
    btn.disabled = true;
    status.classList.remove("error");
    status.textContent = `Importing ${file.name} (${bytes(file.size)})… a large file takes a minute or more.`;
    try {
      const out = await v1.importFile(file);
      const conflicts = out.conflicts || [];
      // append skips a missing part; replaceChildren wrote each as the text "null"
      status.replaceChildren();
      append(status, [
        h("span", {}, `Imported ${out.imported}, skipped ${out.skipped} already here${out.reembedded ? `, ${out.reembedded} embedded again` : ""}.`),
        conflicts.length ? h("span", {}, ` ${conflicts.length} not imported: line ${conflicts[0].line}, ${conflicts[0].reason}${conflicts.length > 1 ? "…" : ""}`) : null,
        out.imported ? h("button", { type: "button", class: "btn small inline-btn", onclick: () => undo(out.operation_id, () => { loadHistory(); status.textContent = "Import undone."; }) }, "Undo import") : null]);
      $("#import-file").value = "";
      loadHistory();
      loadReviewCount();
    } catch (err) {
      // A file of another kind (notes, a chat) fails on its first line: say what the import reads.
      const what = err.status === 400 && /^line \d+\b/.test(err.message)
        ? " This reads the JSON Lines file an export writes; notes are added with engram add, a conversation with engram ingest." : "";
      status.textContent = err.status === 413 ? `Import failed — ${file.name} (${bytes(file.size)}) ${err.detail}.`
        : `Import failed — ${err.message}.${what}`;
      status.classList.add("error");
    } finally {
      btn.disabled = !$("#import-file").files.length;
    }
  }
  const OP_NAMES = { optimize_tags: "Tags tidied", merge_memories: "Memories merged", import: "Import", maintain: "Maintenance",
    rename_tag: "Tag renamed" };
  function opName(name) {
    return OP_NAMES[name] || (name.startsWith("import") ? `Import (${name.replace(/^import_?/, "") || "SHODH"})` : name.replaceAll("_", " "));
  }
  function opSummary(summary) {
    const sm = summary || {};
    if (typeof sm.old === "string" && typeof sm.new === "string") {
      return `${sm.old} → ${sm.new}${sm.merged ? " (merged)" : ""}${typeof sm.memories === "number" ? ` · ${sm.memories} ${sm.memories === 1 ? "memory" : "memories"}` : ""}`;
    }
    return Object.entries(summary || {}).filter(([k, v]) => k !== "rollback" && (typeof v === "number" || typeof v === "string"))
      .slice(0, 5).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(" · ");
  }
  async function loadHistory() {
    const status = $("#history-status");
    const list = $("#history-list");
    status.classList.remove("error");
    try {
      const ops = (await v1.tool("operations", { limit: 50 })).operations || [];
      status.textContent = "";
      list.replaceChildren(...(ops.length ? ops.map((op) => h("li", { class: "card op", dataset: { op: op.id } },
        h("div", { class: "op-main" },
          h("span", { class: "op-name" }, opName(op.name)),
          h("span", { class: `chip op-status status-${op.status}` }, op.status.replace("_", " ")),
          h("time", { datetime: op.started_at, title: fullDate(op.started_at) }, shortDate(op.started_at))),
        h("p", { class: "muted op-summary" }, `${op.changes} change${op.changes === 1 ? "" : "s"}${opSummary(op.summary) ? ` · ${opSummary(op.summary)}` : ""}`),
        op.status === "done" && op.changes > 0
          ? h("button", { type: "button", class: "btn small", "aria-label": `Undo ${opName(op.name)} of ${shortDate(op.started_at)}`,
            onclick: () => undo(op.id, () => { loadHistory(); loadReviewCount(); }) }, "Undo")
          : null))
        : [emptyState("No bulk changes yet.")]));
    } catch (err) {
      status.textContent = `Could not load the history — ${err.message}`;
      status.classList.add("error");
    }
  }
  function setupData() {
    $("#export-btn").addEventListener("click", downloadExport);
    $("#import-file").addEventListener("change", () => { $("#import-btn").disabled = !$("#import-file").files.length; });
    $("#import-btn").addEventListener("click", runImport);
    $("#history-refresh").addEventListener("click", loadHistory);
    loaders.data = loadHistory;
  }

  // ---- stats -----------------------------------------------------------------------------------------------------
  function kpi(label, value, note) {
    return h("div", { class: "card kpi" }, h("div", { class: "label" }, label), h("div", { class: "value" }, value),
      note ? h("div", { class: "note" }, note) : null);
  }
  function hbars(title, counts) {
    const entries = Object.entries(counts || {}).sort((a, b) => b[1] - a[1]);
    const max = Math.max(1, ...entries.map((e) => e[1]));
    return h("section", { class: "card stat-card" }, h("h2", {}, title),
      entries.length
        ? h("ul", { class: "hbars" }, entries.map(([k, n]) => h("li", { class: "hbar" },
          h("span", { class: "name", title: k }, k),
          h("span", { class: "track", role: "meter", "aria-label": k, "aria-valuemin": 0, "aria-valuemax": max, "aria-valuenow": n },
            h("span", { style: { width: `${(n / max) * 100}%` } })),
          h("span", { class: "n" }, n))))
        : h("p", { class: "muted" }, "Nothing yet."));
  }

  async function loadStats() {
    const status = $("#stats-status");
    status.classList.remove("error");
    const [st, tl] = await Promise.allSettled([
      v1.tool("memory_stats").catch(() => v1.stats()),
      v1.tools(),
    ]);
    if (st.status === "rejected") {
      status.textContent = `Could not load stats — ${st.reason.message}`;
      status.classList.add("error");
      return;
    }
    const s = st.value;
    const state = tl.status === "fulfilled" ? tl.value.current_system_state || {} : {};
    updateBadge(s);
    status.textContent = "";
    const health = typeof state.health_score === "number" ? state.health_score : null;
    const kpis = [
      kpi("Memories", String(s.memories ?? "–"), s.chunks ? `+ ${s.chunks} chunks` : "top-level"),
      kpi("Embedded", String(s.embedded ?? "–"), s.index ? `${s.index.indexed} in the vector index` : null),
      kpi("Store size", bytes(s.size_bytes), s.model ? `${s.model} · ${s.dim}-d` : null),
      kpi("Pending review", String((s.by_status && s.by_status.pending) || 0), "awaiting a decision"),
    ];
    if (s.tags) kpis.push(kpi("Tags", String(s.tags.active || 0), Object.entries(s.tags).filter(([k]) => k !== "active").map(([k, v]) => `${v} ${k}`).join(", ") || "active"));
    if (typeof s.operations === "number") kpis.push(kpi("Operations", String(s.operations), "bulk changes, undoable"));
    if (health != null) {
      const pct = Math.round(health * 100);
      const color = pct >= 80 ? "var(--ok)" : pct >= 50 ? "var(--warn)" : "var(--danger)";
      kpis.unshift(h("div", { class: "card kpi health" },
        h("div", { class: "ring", style: { "--p": String(pct), "--ring": color }, role: "meter", "aria-label": "Health score",
          "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": pct }, h("span", {}, `${pct}`)),
        h("div", {}, h("div", { class: "label" }, "Health"), h("div", { class: "note" }, pct >= 80 ? "in good shape" : "could be tidied"))));
    }
    $("#kpis").replaceChildren(...kpis);
    const cards = [hbars("By kind", s.by_kind), hbars("By status", s.by_status), hbars("By scope", s.by_scope)];
    if (s.categories) cards.push(hbars("By category", s.categories));
    const opps = state.optimization_opportunities || [];
    cards.push(h("section", { class: "card stat-card" }, h("h2", {}, "Suggestions"),
      opps.length ? h("ul", { class: "opps" }, opps.map((o) => h("li", {}, o))) : h("p", { class: "muted" }, "Nothing to tidy.")));
    $("#stat-grid").replaceChildren(...cards);
  }

  // ---- API key ----------------------------------------------------------------------------------------------------
  function askForKey(reason) {
    const dlg = $("#keydlg");
    if (dlg.open) return;
    if (reason) $("#key-reason").textContent = `The server refused the request (${reason}). Paste an API key created with “engram keys create NAME”; it is kept in this browser only.`;
    setConn("bad", "API key needed");
    for (const d of $$("dialog[open]")) d.close();
    dlg.showModal();
    $("#k-secret").focus();
  }
  function setupKey() {
    $("#key-open").addEventListener("click", () => { $("#keydlg").showModal(); $("#k-secret").value = storedKey(); $("#k-secret").focus(); });
    $("#key-form").addEventListener("submit", (e) => {
      e.preventDefault();
      try { localStorage.setItem(KEY_STORE, $("#k-secret").value.trim()); } catch { /* private mode */ }
      $("#keydlg").close();
      connect();
      show(view);
    });
    $("#k-clear").addEventListener("click", () => {
      try { localStorage.removeItem(KEY_STORE); } catch { /* private mode */ }
      $("#k-secret").value = "";
      $("#keydlg").close();
      toast("Key forgotten.");
      connect();
    });
  }

  async function connect() {
    try {
      const health = await api("GET", "/api/health");
      setConn(health.status === "healthy" ? "ok" : "bad", `v${health.version} · ${health.status}${storedKey() ? " · key set" : ""}`);
    } catch {
      setConn("bad", "Server unreachable");
    }
  }

  // ---- start ----------------------------------------------------------------------------------------------------
  function start() {
    setupTabs();
    setupShortcuts();
    setupDialogs();
    setupSearch();
    setupDetail();
    setupAdd();
    setupTimeline();
    setupConcepts();
    setupKey();
    setupReview();
    setupTags();
    setupData();
    loaders.stats = loadStats;
    connect();
    loadReviewCount();
    const initial = readUrl();
    show(initial.name, { url: false });
    if (initial.query) {
      $("#q").value = initial.query;
      runSearch();
    }
    setUrl(urlFor(initial.name, initial.query), { replace: true });
    document.body.dataset.ready = "1";
  }

  // For tests and the curious: the live chart and graph.
  window.engramUI = {
    get chart() { return chart; },
    get cy() { return cy; },
    show,
    open: openDetail,
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
