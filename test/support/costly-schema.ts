/**
 * A JSON Schema within every size bound that is slow to compile: twelve
 * patterns of `(?i)` and `\pL` 300 times, about 80 ms each on RE2 (it
 * case-folds each class). `salt` makes each one new to the verdict cache.
 */
export const costlySchema = (salt: string) => ({
  type: "object",
  properties: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, { type: "string", pattern: `(?i)${"\\pL".repeat(300)}${salt}${i}` }])),
});
