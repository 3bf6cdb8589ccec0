/** What every paged list carries beside its items (docs/extensions.md section 1). */
export class PageDto {
  /**
   * Present when more items may follow: send it back as `continuationToken` for the next page.
   * The `Link` header holds the same next page as a URL.
   */
  continuationToken?: string;
}
