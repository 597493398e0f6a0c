// The one reconnecting table socket, used by the lobby and by the table.
//
// - Reconnects after a drop with exponential backoff and full jitter (so the tabs of a table
//   that lost its server do not all come back at the same instant).
// - On every (re)connect it first sends `hello {since}` (the last version the page saw), so the
//   server answers with exactly the missed moves.
// - request(frame) gives the frame a `ref` and returns a Promise of the server's direct answer
//   (`accepted`, `pong`, …); an `error` frame with that ref rejects it with a SocketError. A
//   request made while the socket is down waits; one sent on a socket that dropped before it was
//   answered is sent again, unchanged, after the next hello (a move keeps its move_id, which the
//   server treats as idempotent). A refusal that names the move_id but no ref answers that move.
// - A socket that says nothing for long is closed and replaced; the page answers server pings.

const BASE_MS = 500;
const CAP_MS = 10000;
const PING_EVERY_MS = 15000;
const SILENT_LIMIT_MS = 60000;

// Close codes after which a new socket would be refused the same way: the socket stops and says
// which ("signed_out": no valid session; "refused": no seat and no way to look on).
const REFUSALS = { 4401: "signed_out", 4403: "refused", 4404: "refused" };

export class SocketError extends Error {
  constructor(code, message, frame) {
    super(message || code);
    this.code = code;
    this.frame = frame || {};
  }
}

// The delay before reconnect attempt `attempt` (0, 1, 2, …): uniform in [base/2, min(cap, base·2^n)].
export function backoffDelay(attempt, random = Math.random) {
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** attempt);
  return Math.round(BASE_MS / 2 + random() * Math.max(0, ceiling - BASE_MS / 2));
}

export function tableSocketUrl(id, invite) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  return `${proto}//${location.host}/ws/tables/${encodeURIComponent(id)}${query}`;
}

export class TableSocket {
  // url: the socket address (or a function giving it at each connect); since(): the last version seen (null: nothing yet);
  // onFrame(frame): every frame that is not a direct answer; onState("connecting" | "live" |
  // "reconnecting"), "reconnecting" once a socket was lost or refused; deltas: the hello asks
  // for `delta` frames after the snapshot (docs/protocol.md, "Deltas").
  constructor({ url, since = () => null, onFrame = () => {}, onState = () => {}, deltas = false }) {
    this.url = url;
    this.since = since;
    this.deltas = deltas;
    this.onFrame = onFrame;
    this.onState = onState;
    this.ws = null;
    this.attempt = 0;
    this.stopped = true;
    this.nextRef = 1;
    this.pending = new Map(); // ref -> {frame, resolve, reject}
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastFrameAt = 0;
  }

  get live() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws) try { ws.close(); } catch {}
    for (const [, p] of this.pending) p.reject(new SocketError("closed", "the table was closed"));
    this.pending.clear();
  }

  // A new socket at once (the profile changed, or the network is back).
  reconnectNow() {
    if (this.stopped) return;
    const ws = this.ws;
    this.ws = null;
    if (ws) try { ws.close(); } catch {}
    this.attempt = 0;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  // Sends now if the socket is open; returns whether it did.
  send(frame) {
    if (!this.live) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  request(frame) {
    const ref = this.nextRef++;
    const framed = { ...frame, ref };
    return new Promise((resolve, reject) => {
      this.pending.set(ref, { frame: framed, resolve, reject });
      if (this.stopped) {
        this.pending.delete(ref);
        reject(new SocketError("closed", "the table was closed"));
        return;
      }
      this.send(framed); // else: sent after the next hello
    });
  }

  connect() {
    if (this.stopped) return;
    let ws;
    try {
      ws = new WebSocket(typeof this.url === "function" ? this.url() : this.url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    this.onState(this.attempt ? "reconnecting" : "connecting");
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.onState("live");
      this.lastFrameAt = Date.now();
      ws.send(JSON.stringify(this.deltas ? { type: "hello", since: this.since(), deltas: true } : { type: "hello", since: this.since() }));
      for (const [, p] of this.pending) ws.send(JSON.stringify(p.frame));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.heartbeat(ws), PING_EVERY_MS);
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.lastFrameAt = Date.now();
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.attempt = 0;
      this.receive(frame);
    };
    ws.onerror = () => {};
    ws.onclose = (ev) => {
      if (this.ws !== ws) return; // replaced or stopped
      this.ws = null;
      clearInterval(this.pingTimer);
      const refused = REFUSALS[ev && ev.code];
      if (refused) {
        // Trying again cannot help until the person acts (signs in, gets an invite): stop.
        this.stopped = true;
        for (const [, p] of this.pending) p.reject(new SocketError(refused, "the table was closed"));
        this.pending.clear();
        this.onState(refused);
        return;
      }
      this.retry();
    };
  }

  heartbeat(ws) {
    if (this.ws !== ws) return;
    // a socket that has said nothing for long is dead even if it looks open
    if (Date.now() - this.lastFrameAt > SILENT_LIMIT_MS) {
      try { ws.close(); } catch {}
      return;
    }
    this.send({ type: "ping" });
  }

  retry() {
    if (this.stopped) return;
    this.onState("reconnecting");
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), backoffDelay(this.attempt));
    this.attempt += 1;
  }

  receive(frame) {
    if (frame.type === "ping") {
      this.send({ type: "pong" });
      return;
    }
    const ref = this.answering(frame);
    const p = ref === null ? null : this.pending.get(ref);
    if (p) {
      this.pending.delete(ref);
      if (frame.type === "error") {
        const err = frame.error || frame;
        p.reject(new SocketError(err.code || "error", err.message || "", frame));
      } else p.resolve(frame);
      return;
    }
    if (frame.type === "pong") return;
    this.onFrame(frame);
  }

  // The ref of the pending request a frame answers, or null. A refused move may come back with
  // its move_id and no ref: it answers the pending move with that move_id.
  answering(frame) {
    if (frame.ref !== undefined && frame.ref !== null) return this.pending.has(frame.ref) ? frame.ref : null;
    if (frame.move_id === undefined || frame.move_id === null) return null;
    for (const [ref, p] of this.pending) if (p.frame.move_id === frame.move_id) return ref;
    return null;
  }
}
