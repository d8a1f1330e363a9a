/**
 * A calendar object's writes held while its tenant moves to another shard (src/relocations). While
 * held, the object answers reads only, and its D1 binding refuses every statement, so nothing it
 * does (write-behind, an offer's hold, a connected calendar's events) reaches the shard being copied:
 * what it owes D1 stays in its own tables and goes to the new shard once the move releases it.
 */
import { movingError } from "../lib/transient";

/**
 * Lets D1 statements through until the object is held; counts those in flight, so holding answers
 * only once every statement that started before it has finished.
 */
export class RelocationGate {
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly isHeld: () => boolean) {}

  /** Runs `io` unless the object is held (then a `movingError`), tracking it until it settles. */
  run<T>(io: () => Promise<T>): Promise<T> {
    if (this.isHeld()) return Promise.reject(movingError("A write to D1"));
    const running = io();
    this.running.add(running);
    const done = () => void this.running.delete(running);
    running.then(done, done);
    return running;
  }

  /** Resolves once no statement that started before this call is still running. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * `db` with every statement and batch run through the gate; so are those of its sessions (the
   * write-behind writes through one on the primary, for its bookmark: src/calendar/d1/persist.ts).
   */
  database(db: D1Database): D1Database {
    return {
      ...this.gated(db),
      exec: (query: string) => this.run(() => db.exec(query)),
      withSession: (constraint: string) => {
        const session = db.withSession(constraint);
        return { ...this.gated(session), getBookmark: () => session.getBookmark() };
      },
      dump: () => this.run(() => db.dump()),
    } as D1Database;
  }

  /** `prepare` and `batch` of `db` (a binding or a session), each statement run through the gate. */
  private gated(db: Pick<D1Database, "prepare" | "batch">) {
    const real = new WeakMap<object, D1PreparedStatement>();
    const gated = (statement: D1PreparedStatement): D1PreparedStatement => {
      const proxy = new Proxy(statement, {
        get: (target, property) => {
          if (property === "bind") return (...values: unknown[]) => gated(target.bind(...values));
          const value = Reflect.get(target, property, target);
          if (property === "run" || property === "all" || property === "first" || property === "raw") {
            return (...args: unknown[]) =>
              this.run(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
          }
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      real.set(proxy, statement);
      return proxy;
    };
    return {
      prepare: (query: string) => gated(db.prepare(query)),
      batch: (statements: D1PreparedStatement[]) =>
        this.run(() => db.batch(statements.map((statement) => real.get(statement) ?? statement))),
    };
  }
}
