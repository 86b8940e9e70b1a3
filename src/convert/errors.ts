import { LimitExceeded } from "../errors";

/** A Markdown or HTML source beyond the limits of LIMITS.convert (413 `convert_limit`). */
export class ConvertLimitExceeded extends LimitExceeded {
  constructor(message: string) {
    super("convert_limit", message);
  }
}
