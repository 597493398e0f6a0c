// Deltas on the table socket (docs/protocol.md, "Deltas"): a `delta` frame's `patch` is an
// RFC 6902 JSON Patch (add, remove, replace) of the game the page holds — its view, legal moves,
// scores, status, seats and clock at the frame's `since`. Applying it copies every object on an
// operation's path and changes nothing the page still holds. `digest` checks a copy: the CRC-32
// of the canonical JSON (keys sorted, no spaces) of the view and the legal moves, as the server
// computes it (app/tables/delta.py).

export const DOC_FIELDS = ["view", "legal_moves", "scores", "status", "seats", "clock"];

// The game document of a snapshot, an update or a GET …/game answer.
export function docOf(g) {
  const doc = {};
  for (const k of DOC_FIELDS) doc[k] = g[k] === undefined ? null : g[k];
  return doc;
}

const unescape = (token) => token.replace(/~1/g, "/").replace(/~0/g, "~");
const copy = (v) => (Array.isArray(v) ? v.slice() : v && typeof v === "object" ? { ...v } : v);

// The document with the operations applied; throws on an operation that does not fit it.
export function applyPatch(doc, ops) {
  let out = doc;
  for (const op of ops) out = applyOne(out, op);
  return out;
}

function applyOne(doc, op) {
  const path = op.path ?? "";
  if (path === "") {
    if (op.op !== "replace") throw new Error(`cannot ${op.op} the whole document`);
    return op.value;
  }
  if (!path.startsWith("/")) throw new Error(`bad path ${path}`);
  const tokens = path.slice(1).split("/").map(unescape);
  const root = copy(doc);
  let parent = root;
  for (const token of tokens.slice(0, -1)) {
    const key = Array.isArray(parent) ? Number(token) : token;
    if (parent === null || typeof parent !== "object" || !(key in parent)) throw new Error(`no ${path}`);
    parent[key] = copy(parent[key]);
    parent = parent[key];
  }
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = last === "-" ? parent.length : /^\d+$/.test(last) ? Number(last) : -1;
    if (op.op === "add" && i >= 0 && i <= parent.length) parent.splice(i, 0, op.value);
    else if (op.op === "remove" && i >= 0 && i < parent.length) parent.splice(i, 1);
    else if (op.op === "replace" && i >= 0 && i < parent.length) parent[i] = op.value;
    else throw new Error(`no ${path}`);
  } else if (parent !== null && typeof parent === "object") {
    if (op.op === "add") parent[last] = op.value;
    else if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new Error(`no ${path}`);
    else if (op.op === "remove") delete parent[last];
    else if (op.op === "replace") parent[last] = op.value;
    else throw new Error(`unknown op ${op.op}`);
  } else {
    throw new Error(`no ${path}`);
  }
  return root;
}

// Canonical JSON: keys sorted, no spaces (what Python's json.dumps(sort_keys=True,
// separators=(",", ":"), ensure_ascii=False) writes for the same value).
export function canonical(value) {
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  }
  return JSON.stringify(value);
}

let TABLE = null;
function crcTable() {
  if (TABLE) return TABLE;
  TABLE = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    TABLE[n] = c >>> 0;
  }
  return TABLE;
}

// CRC-32 (zlib's) of a string's UTF-8 bytes, as 8 hex digits.
export function crc32(text) {
  const table = crcTable();
  let c = 0xffffffff;
  for (const b of new TextEncoder().encode(text)) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
  return ((c ^ 0xffffffff) >>> 0).toString(16).padStart(8, "0");
}

export function digest(doc) {
  return crc32(canonical({ view: doc.view, legal_moves: doc.legal_moves }));
}
