/**
 * Booking questions: what a service asks when it is booked, and the rule that holds a booking's
 * answers to them. Pure; the Worker checks answers before the calendar is asked.
 */

export const questionTypes = ["text", "number", "boolean", "choice"] as const;

/** One question of a service. `choices` is given for `choice` questions only. */
export type Question = {
  key: string;
  label: string;
  type: (typeof questionTypes)[number];
  required: boolean;
  choices?: string[];
};

/** A booking's answers, by question key. */
export type Answers = Record<string, string | number | boolean>;

/** The most questions a service has, and the longest text answer. */
export const MAX_QUESTIONS = 20;
export const MAX_TEXT_ANSWER = 2_000;

const kinds: Record<Question["type"], (value: unknown, q: Question) => string | undefined> = {
  text: (v) =>
    typeof v === "string" && v.trim().length > 0 && v.length <= MAX_TEXT_ANSWER
      ? undefined
      : `Must be text of 1–${MAX_TEXT_ANSWER} characters.`,
  number: (v) => (typeof v === "number" && Number.isFinite(v) ? undefined : "Must be a number."),
  boolean: (v) => (typeof v === "boolean" ? undefined : "Must be true or false."),
  choice: (v, q) =>
    typeof v === "string" && (q.choices ?? []).includes(v)
      ? undefined
      : `Must be one of: ${(q.choices ?? []).join(", ")}.`,
};

/**
 * What is wrong with `answers` for these questions, one entry per key (`answers.<key>`): a key
 * that is no question of the service, a required question left out, an answer of the wrong kind.
 */
export function answerErrors(questions: readonly Question[], answers: Answers): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  const byKey = new Map(questions.map((q) => [q.key, q]));
  for (const [key, value] of Object.entries(answers)) {
    const question = byKey.get(key);
    const problem = question ? kinds[question.type](value, question) : "Not a question of this service.";
    if (problem) errors.push({ path: `answers.${key}`, message: problem });
  }
  for (const q of questions) {
    // Own keys only: `in` would count what every object inherits ("constructor", "toString").
    if (q.required && !Object.hasOwn(answers, q.key)) errors.push({ path: `answers.${q.key}`, message: "Required." });
  }
  return errors;
}
