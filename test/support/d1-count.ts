/**
 * Counts the D1 statements a piece of code runs, and its round trips: a statement run alone is
 * one of each; a batch is one round trip of as many statements as it carries. Not a test file.
 */

/** Statements and round trips counted so far; with `sql`, the text of each statement run, in order. */
export type StatementCount = { statements: number; trips: number; sql?: string[] };

const real = Symbol("real statement");

const texts = new WeakMap<object, string>();

function countingStatement(statement: D1PreparedStatement, count: StatementCount, sql: string): D1PreparedStatement {
  const proxy = new Proxy(statement, {
    get(target, name) {
      if (name === real) return target;
      if (name === "bind") return (...values: unknown[]) => countingStatement(target.bind(...values), count, sql);
      const value = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      if (["first", "all", "run", "raw"].includes(String(name))) {
        return (...args: unknown[]) => {
          count.statements += 1;
          count.trips += 1;
          count.sql?.push(sql);
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  texts.set(proxy, sql);
  return proxy;
}

/** `binding`, counting into `count` every statement it (or a session of it) runs. */
export function countingD1(binding: D1Database, count: StatementCount): D1Database {
  return new Proxy(binding, {
    get(target, name) {
      if (name === "withSession") {
        return (constraint: string) =>
          countingD1(target.withSession(constraint) as unknown as D1Database, count) as unknown as D1DatabaseSession;
      }
      if (name === "prepare") return (sql: string) => countingStatement(target.prepare(sql), count, sql);
      if (name === "batch") {
        return (statements: D1PreparedStatement[]) => {
          count.statements += statements.length;
          count.trips += 1;
          count.sql?.push(...statements.map((s) => texts.get(s) ?? "?"));
          return target.batch(statements.map((s) => (s as unknown as Record<symbol, D1PreparedStatement>)[real] ?? s));
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
