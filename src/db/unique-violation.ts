/** Prisma's error for an insert or update that a unique index refused (P2002), the same through every driver adapter. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "P2002";
