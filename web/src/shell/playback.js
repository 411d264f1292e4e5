// The playback position over an episode whose windows may still be arriving: play/pause, speed
// (windows per second, or Infinity for as fast as they arrive), step and seek. Calls
// onChange(cursor, state) whenever the position or state changes.
export class Playback {
  #run = null;
  #cursor = -1;
  #playing = false;
  #speed = 30;
  #carry = 0;
  #last = 0;
  #frame = 0;

  constructor(onChange) {
    this.onChange = onChange;
  }

  get cursor() {
    return this.#cursor;
  }

  get playing() {
    return this.#playing;
  }

  get state() {
    if (!this.#run) return 'idle';
    if (this.#playing) return 'playing';
    if (this.#run.complete && this.#cursor === this.#run.frames.length - 1) return 'ended';
    return 'paused';
  }

  attach(run, { play = true } = {}) {
    this.#run = run;
    this.#cursor = -1;
    this.#carry = 0;
    if (play) this.play();
    else this.#notify();
  }

  // Forgets the episode without a change notification (a new one is on its way).
  detach() {
    this.#playing = false;
    cancelAnimationFrame(this.#frame);
    this.#run = null;
  }

  setSpeed(windowsPerSecond) {
    this.#speed = windowsPerSecond;
  }

  play() {
    if (!this.#run) return;
    if (this.state === 'ended') this.#cursor = -1; // play again from the start
    this.#playing = true;
    this.#last = performance.now();
    cancelAnimationFrame(this.#frame);
    this.#frame = requestAnimationFrame((t) => this.#tick(t));
    this.#notify();
  }

  pause() {
    this.#playing = false;
    cancelAnimationFrame(this.#frame);
    this.#notify();
  }

  toggle() {
    if (this.#playing) this.pause();
    else this.play();
  }

  // Moves to window index `index` (clamped to the windows received so far) and pauses.
  seek(index) {
    if (!this.#run || this.#run.frames.length === 0) return;
    this.#playing = false;
    cancelAnimationFrame(this.#frame);
    this.#cursor = Math.max(0, Math.min(index, this.#run.frames.length - 1));
    this.#notify();
  }

  step(delta) {
    this.seek(this.#cursor + delta);
  }

  // More windows arrived or the episode finished: the state may change (ended).
  refresh() {
    this.#notify();
  }

  #tick(now) {
    if (!this.#playing) return;
    const available = this.#run.frames.length - 1;
    if (this.#speed === Infinity) {
      this.#cursor = available;
    } else {
      this.#carry += ((now - this.#last) / 1000) * this.#speed;
      const whole = Math.floor(this.#carry);
      this.#carry -= whole;
      this.#cursor = Math.min(available, this.#cursor + whole);
    }
    this.#last = now;
    if (this.#run.complete && this.#cursor === available) this.#playing = false;
    this.#notify();
    if (this.#playing) this.#frame = requestAnimationFrame((t) => this.#tick(t));
  }

  #notify() {
    this.onChange(this.#cursor, this.state);
  }
}
