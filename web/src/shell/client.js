// The page's side of the simulation worker: requests as promises, streamed events as callbacks.
export class SimulationError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = kind;
  }
}

export class WorkerClient {
  #worker;
  #next = 1;
  #pending = new Map();

  constructor() {
    this.#worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.#worker.onmessage = ({ data }) => this.#receive(data);
    this.#worker.onerror = (e) => {
      for (const { reject } of this.#pending.values()) reject(new SimulationError('WorkerError', e.message));
      this.#pending.clear();
    };
  }

  #receive(message) {
    const entry = this.#pending.get(message.id);
    if (!entry) return;
    if (message.type === 'event') {
      entry.onEvent?.(message.event);
      return;
    }
    this.#pending.delete(message.id);
    if (message.type === 'done') entry.resolve(message.result);
    else entry.reject(new SimulationError(message.kind, message.message));
  }

  // Starts a request; returns {id, result: Promise}. `onEvent` sees the request's events.
  start(type, payload = {}, onEvent = null, transfer = []) {
    const id = this.#next++;
    const result = new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject, onEvent }));
    this.#worker.postMessage({ ...payload, type, id }, transfer);
    return { id, result };
  }

  request(type, payload = {}, onEvent = null, transfer = []) {
    return this.start(type, payload, onEvent, transfer).result;
  }

  cancel(id) {
    this.#worker.postMessage({ type: 'cancel', of: id });
  }
}
