import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** The page just loaded: its first screen leaves the focus where the browser put it. */
let firstScreen = true;

/**
 * A screen: its main heading names what it shows and the tab's title follows it. The heading
 * takes the focus when another screen opens in the page, so a screen reader announces where a
 * link led (on the first, the skip link stays the first stop of the Tab key).
 */
export function Screen({
  title,
  kind,
  headingId,
  children,
}: {
  title: string;
  /** The heading's id, when a table takes its name from it. */
  headingId?: string;
  /** What the heading names, when the name alone does not say (`Scope`, `Stream`). */
  kind?: string;
  children: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Tributary`;
    if (!firstScreen) heading.current?.focus({ preventScroll: true });
    firstScreen = false;
  }, [title, kind]);
  return (
    <>
      {kind && <p class="kind">{kind}</p>}
      <h1 tabIndex={-1} ref={heading} id={headingId}>
        {title}
      </h1>
      {children}
    </>
  );
}

/** A part of a screen under its own heading (`h2`). */
export function Section({
  title,
  id,
  children,
}: {
  title: string;
  /** The heading's id: a table inside takes its name from it. */
  id: string;
  children: ComponentChildren;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A section that is one form: the form takes its name from the section's heading, and the
 * browser's own checks are off (each field shows the API's rule or its 400 next to it).
 */
export function FormSection({
  title,
  id,
  onSubmit,
  children,
}: {
  title: string;
  id: string;
  onSubmit: (event: Event) => Promise<void>;
  children: ComponentChildren;
}) {
  return (
    <Section title={title} id={id}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby={id}>
        {children}
      </form>
    </Section>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}
