/** Pass as `skipCSRFCheck` to turn off the CSRF check. Only for frameworks with their own protection. */
export const skipCSRFCheck = Symbol("skip-csrf-check");
/** Pass as `raw` to get the internal response value instead of a `Response` (framework glue). */
export const raw = Symbol("return-type-raw");
