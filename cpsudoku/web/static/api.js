// The JSON API, as the page uses it. Every error is {error: "one line"}.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// `signal` (an AbortController's) drops the request when the player moves on to another
// puzzle, so an old answer can never land on the new one.
export async function call(path, body, signal = undefined) {
  const init = body === undefined ? { signal } : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  };
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || `HTTP ${response.status}`);
  return data;
}

export function aborted(err) {
  return err && err.name === "AbortError";
}

// A short link: the puzzle text deflated and base64url-encoded (a killer's 1 kB puzzle
// file becomes about 450 characters), read back by the page itself.
export async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function unpack(packed) {
  const binary = atob(packed.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}
