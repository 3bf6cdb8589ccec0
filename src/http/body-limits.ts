/*
 * The bounds of a request body's shape, checked by the body gate while the body is read, before
 * anything walks it (docs/behaviour.md section 2). Its size is bounded by MAX_BODY_BYTES and
 * APPLY_MAX_BODY_BYTES (configuration).
 */

/**
 * How deep a body may nest objects and arrays. Far beyond what any body of the API needs (an
 * apply document nests 7 deep), and shallow enough for every reader that recurses.
 */
export const MAX_BODY_DEPTH = 64;

/**
 * The most entries one list of a body may hold, whatever its place (and one YAML mapping). No
 * list of the API may be longer (the longest, the apply's, hold at most 10,000 resources); a
 * longer one is refused while the body is read, before it is parsed. Each list's own maximum,
 * often lower, is its DTO's (`ArrayMaxSize`), checked once the body is parsed.
 */
export const MAX_LIST_ENTRIES = 10_000;

/** The most aliases (`*name`) a YAML document may use. */
export const MAX_YAML_ALIASES = 100;
