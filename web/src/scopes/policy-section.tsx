import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { ScopePolicy } from '../api/types';
import { Section } from '../components/screen';
import { useMay } from '../session/use-may';
import { PolicyEditForm } from './policy-edit-form';
import { hasPolicy, limitWords, streamRules } from './policy-words';

/** The rules a stream must follow, one line each (none when the policy sets none). */
export function StreamRulesList({ policy, label }: { policy: ScopePolicy; label: string }) {
  const said = streamRules(policy);
  const rules = [said.streamNames, said.scalingTypes, said.retention, said.requiredTags].filter(
    (rule): rule is string => !!rule,
  );
  if (!rules.length) return null;
  return (
    <ul class="rules" aria-label={label}>
      {rules.map((rule) => (
        <li key={rule}>{rule}</li>
      ))}
    </ul>
  );
}

/** The scope's policy: its owner, description, limits and rules for streams. */
function PolicyFacts({ policy }: { policy: ScopePolicy }) {
  const limits = [
    policy.maxStreams !== undefined && ['Streams', limitWords(policy.maxStreams, 'stream')],
    policy.maxActiveSegments !== undefined && [
      'Active segments',
      limitWords(policy.maxActiveSegments, 'active segment'),
    ],
    policy.maxSegmentsPerStream !== undefined && [
      'Segments per stream',
      limitWords(policy.maxSegmentsPerStream, 'active segment'),
    ],
  ].filter((limit): limit is [string, string] => !!limit);
  return (
    <>
      <dl class="facts" aria-label="Policy">
        {policy.owner && (
          <>
            <dt>Owner</dt>
            <dd>{policy.owner}</dd>
          </>
        )}
        {policy.description && (
          <>
            <dt>Description</dt>
            <dd>{policy.description}</dd>
          </>
        )}
        {limits.map(([name, words]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd>{words}</dd>
          </Fragment>
        ))}
      </dl>
      <StreamRulesList policy={policy} label="Rules for streams" />
    </>
  );
}

/**
 * The scope's policy, and for whoever may change policies (`READ_UPDATE` on `prn::/`) an "Edit
 * policy" button that opens its form. A scope without a policy says so in one line.
 */
export function PolicySection({
  scope,
  policy,
  etag,
  onChanged,
}: {
  scope: string;
  policy: ScopePolicy;
  etag?: string;
  /** The policy changed here, or is known to have changed: read it again. */
  onChanged: () => void;
}) {
  const may = useMay('prn::/', 'READ_UPDATE');
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  return (
    <Section title="Policy" id="policy-heading">
      {hasPolicy(policy) ? <PolicyFacts policy={policy} /> : <p>No policy: no limits or rules.</p>}
      {may && !editing && (
        <div class="actions">
          <button
            type="button"
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            Edit policy
          </button>
        </div>
      )}
      {saved && (
        <p role="status" class="done">
          Policy saved.
        </p>
      )}
      {may && editing && (
        <PolicyEditForm
          scope={scope}
          policy={policy}
          etag={etag}
          onSaved={() => {
            setEditing(false);
            setSaved(true);
            onChanged();
          }}
          onStale={onChanged}
          onCancel={() => setEditing(false)}
        />
      )}
    </Section>
  );
}
