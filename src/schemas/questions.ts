/** A service's booking questions and a booking's answers to them, as the API reads and shows them. */

import { z } from "../lib/zod";
import { type Answers, MAX_QUESTIONS, MAX_TEXT_ANSWER, type Question, questionTypes } from "../types/questions";

/** Like the API's own field names (`firstVisit`, `first_visit`); compared case-sensitively, as JSON members are. */
const questionKey = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, "Use 1–40 letters, digits or _, starting with a letter.");

const QuestionSchema = z
  .strictObject({
    key: questionKey.openapi({
      description:
        "The answer's key in a booking's `answers`: 1–40 ASCII letters, digits or `_`, starting with a letter; case-sensitive (`firstVisit` and `firstvisit` are two keys).",
      example: "firstVisit",
    }),
    label: z.string().trim().min(1).max(200).openapi({ example: "Any allergies we should know about?" }),
    type: z.enum(questionTypes).openapi({
      description: `\`text\` (1–${MAX_TEXT_ANSWER} characters), \`number\`, \`boolean\`, or \`choice\` (one of \`choices\`).`,
      example: "text",
    }),
    required: z.boolean().default(false).openapi({ description: "A booking must answer it." }),
    choices: z
      .array(z.string().trim().min(1).max(100))
      .min(1)
      .max(20)
      .optional()
      .openapi({ description: "The answers a `choice` question allows (and only it has them)." }),
  })
  .superRefine((q, ctx) => {
    if (q.type === "choice" && !q.choices)
      ctx.addIssue({ code: "custom", path: ["choices"], message: "A choice question lists its choices." });
    if (q.type !== "choice" && q.choices)
      ctx.addIssue({ code: "custom", path: ["choices"], message: "Only a choice question has choices." });
    q.choices?.forEach((c, i) => {
      if (q.choices?.indexOf(c) !== i)
        ctx.addIssue({ code: "custom", path: ["choices", i], message: `${c} is listed twice.` });
    });
  })
  .openapi("Question");

/** A service's questions: at most MAX_QUESTIONS, keys unique (case-sensitively). */
export const QuestionsSchema = z
  .array(QuestionSchema)
  .max(MAX_QUESTIONS)
  .superRefine((questions, ctx) => {
    const keys = questions.map((q) => q.key);
    keys.forEach((key, i) => {
      if (keys.indexOf(key) !== i) ctx.addIssue({ code: "custom", path: [i, "key"], message: `${key} is used twice.` });
    });
  })
  .openapi({
    description: `What a booking of this service asks (at most ${MAX_QUESTIONS}); each booking's \`answers\` are checked against them. Changing them leaves existing bookings' answers as they were.`,
    example: [{ key: "allergies", label: "Any allergies we should know about?", type: "text", required: false }],
  }) satisfies z.ZodType<Question[], unknown>;

/** A booking request's answers: by key, each a string, number or boolean; checked against the service. */
export const AnswersSchema = z
  .record(questionKey, z.union([z.string().max(MAX_TEXT_ANSWER), z.number(), z.boolean()]))
  .refine((answers) => Object.keys(answers).length <= MAX_QUESTIONS, `At most ${MAX_QUESTIONS} answers.`)
  .openapi({
    description:
      "Answers to the service's `questions`, by key: text, a number, true/false, or one of a choice question's `choices`. A key that is no question of the service, a required question left out, or an answer of the wrong kind is a 422 naming `answers.<key>`.",
    example: { allergies: "None" },
  }) satisfies z.ZodType<Answers, unknown>;

/** Answers as a booking shows them. */
export const BookingAnswersSchema = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .openapi({ description: "Answers to the service's questions when it was booked, by key; `{}` for none." });
