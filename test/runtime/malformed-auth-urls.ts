/** Malformed AUTH_URL values and the problem the log must name, shared by the handler and framework glue tests. */
export const MALFORMED_AUTH_URLS: [string, RegExp][] = [
  ["localhost:3000", /no http:\/\/ or https:\/\/ in front/],
  ["http//x", /the ":" after http or https is missing/],
  ["not a url", /is not a URL/],
  ["/auth", /is a path, without the scheme and host/],
  ["auth/api", /is not a URL/],
  ["http://", /has no host/],
  ["https://exa mple.com", /host is not a valid host name/],
  ["ftp://files.example.com", /scheme is ftp:/],
];
