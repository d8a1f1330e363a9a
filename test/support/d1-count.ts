/**
 * Counts the D1 statements a piece of code runs, and its round trips: a statement run alone is
 * one of each; a batch is one round trip of as many statements as it carries. Not a test file.
 */

/** Statements and round trips counted so far. */
export type StatementCount = { statements: number; trips: number };

const real = Symbol("real statement");

function countingStatement(statement: D1PreparedStatement, count: StatementCount): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, name) {
      if (name === real) return target;
      if (name === "bind") return (...values: unknown[]) => countingStatement(target.bind(...values), count);
      const value = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      if (["first", "all", "run", "raw"].includes(String(name))) {
        return (...args: unknown[]) => {
          count.statements += 1;
          count.trips += 1;
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

/** `binding`, counting into `count` every statement it (or a session of it) runs. */
export function countingD1(binding: D1Database, count: StatementCount): D1Database {
  return new Proxy(binding, {
    get(target, name) {
      if (name === "withSession") {
        return (constraint: string) =>
          countingD1(target.withSession(constraint) as unknown as D1Database, count) as unknown as D1DatabaseSession;
      }
      if (name === "prepare") return (sql: string) => countingStatement(target.prepare(sql), count);
      if (name === "batch") {
        return (statements: D1PreparedStatement[]) => {
          count.statements += statements.length;
          count.trips += 1;
          return target.batch(statements.map((s) => (s as unknown as Record<symbol, D1PreparedStatement>)[real] ?? s));
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
