import { call } from "#web/lib/api";

/**
 * Sends one picture; the server checks its content, re-encodes it as WebP and answers with its URL.
 * The product form calls it for each new picture in turn when saving, so it has no hook of its own.
 */
export const uploadImage = (file: File) => {
  const body = new FormData();
  body.append("file", file);
  return call("POST /uploads/images", { body });
};
