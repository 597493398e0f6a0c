// The one DOM helper. h("div.cls", {attrs}, children...) builds an element; s(...) an SVG one.
// Text only ever goes in as text (textContent / text nodes): there is no HTML-string path. Styles
// go through classes, or `style: {prop: value}` set property by property (allowed under the
// Content-Security-Policy, unlike a style="" attribute).

// The elements built with an event handler (`onclick: ...`): morph.js never patches one in place,
// since its handler may close over what the element showed when it was built.
export const HANDLED = new WeakSet();

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v), HANDLED.add(el);
    else if (k === "class") el.setAttribute("class", ((el.getAttribute("class") || "") + " " + v).trim());
    else if (k === "text") el.textContent = v;
    else if (k === "style") Object.assign(el.style, v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "value") el.value = v;
    else if (k === "checked" || k === "selected") el[k] = true, el.setAttribute(k, "");
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

function isAttrs(x) {
  return x && typeof x === "object" && !(x instanceof Node) && !Array.isArray(x);
}

export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (!isAttrs(attrs)) {
    children.unshift(attrs);
    attrs = null;
  }
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  if (!isAttrs(attrs)) {
    children.unshift(attrs);
    attrs = null;
  }
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}
