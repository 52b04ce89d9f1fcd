/**
 * The BFF's reasons and errors name its own machinery ("request reserve", "upstream budget",
 * "held back", "replica's share"): right for logs and the API, not for a reader. Those are said
 * in plain words on screen; any other message is shown as sent.
 */
const PLAIN: ReadonlyArray<[RegExp, string]> = [
  [
    /held back|reserve/i,
    "automatic refreshes are paused to keep this hour's last requests for pages people open",
  ],
  [/budget|upstream quota|share of/i, "this hour's requests to the data service are used up"],
];

export function plainWords(message: string): string {
  return PLAIN.find(([pattern]) => pattern.test(message))?.[1] ?? message;
}
