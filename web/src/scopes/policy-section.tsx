import { useState } from 'preact/hooks';
import type { ScopeCompliance, ScopePolicy } from '../api/types';
import { Link } from '../routing/router';
import { pathOf } from '../routing/routes';
import { Section } from '../components/screen';
import { useMay } from '../session/use-may';
import { PolicyEditForm } from './policy-edit-form';
import {
  hasPolicy,
  limitUse,
  limitWords,
  moreWords,
  nonCompliantWords,
  streamRules,
} from './policy-words';

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

/** How many of a compliance report's streams are listed, each with its violations. */
const LISTED = 10;

/** A count limit: its use now when the report is read, marked in words when it is exceeded. */
function Limit({
  name,
  limit,
  noun,
  used,
  exceeded,
}: {
  name: string;
  limit: number;
  noun: string;
  used?: number;
  exceeded?: boolean;
}) {
  return (
    <>
      <dt>{name}</dt>
      <dd class={exceeded ? 'over' : undefined}>
        {used === undefined ? limitWords(limit, noun) : limitUse(used, limit, noun)}
        {exceeded && <strong> (over the limit)</strong>}
      </dd>
    </>
  );
}

/** The streams that break the policy now: how many, and the first ones with why. */
function NonCompliant({ scope, compliance }: { scope: string; compliance: ScopeCompliance }) {
  const { nonCompliantCount: count, nonCompliant } = compliance;
  if (count === 0) return <p>Every stream follows the policy.</p>;
  const listed = nonCompliant.slice(0, LISTED);
  const more = moreWords(count, listed.length);
  return (
    <>
      <h3 id="non-compliant-heading">Streams that break the policy</h3>
      <p>
        {nonCompliantWords(count)} (the policy refuses their changes until they follow it
        {listed.length < count ? `; the first ${listed.length} by name are listed` : ''}).
      </p>
      <ul class="non-compliant" aria-labelledby="non-compliant-heading">
        {listed.map(({ streamName, violations }) => (
          <li key={streamName}>
            <Link href={pathOf({ screen: 'stream', scope, stream: streamName })}>{streamName}</Link>
            : {violations.map((violation) => violation.detail).join(' ')}
          </li>
        ))}
      </ul>
      {more && <p>{more}.</p>}
    </>
  );
}

/**
 * The scope's policy: its owner, description, limits with their use now (from the compliance
 * report, once read) and rules for streams; then the streams that break it.
 */
function PolicyFacts({
  scope,
  policy,
  compliance,
}: {
  scope: string;
  policy: ScopePolicy;
  compliance?: ScopeCompliance;
}) {
  const exceeded = (rule: 'maxStreams' | 'maxActiveSegments') =>
    compliance?.limitsExceeded.includes(rule);
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
        {policy.maxStreams !== undefined && (
          <Limit
            name="Streams"
            limit={policy.maxStreams}
            noun="stream"
            used={compliance?.streams}
            exceeded={exceeded('maxStreams')}
          />
        )}
        {policy.maxActiveSegments !== undefined && (
          <Limit
            name="Active segments"
            limit={policy.maxActiveSegments}
            noun="active segment"
            used={compliance?.activeSegments}
            exceeded={exceeded('maxActiveSegments')}
          />
        )}
        {policy.maxSegmentsPerStream !== undefined && (
          <Limit
            name="Segments per stream"
            limit={policy.maxSegmentsPerStream}
            noun="active segment"
          />
        )}
      </dl>
      <StreamRulesList policy={policy} label="Rules for streams" />
      {compliance && <NonCompliant scope={scope} compliance={compliance} />}
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
  compliance,
  onChanged,
}: {
  scope: string;
  policy: ScopePolicy;
  etag?: string;
  /** How the scope stands now against its policy (`GET .../policy/compliance`), once read. */
  compliance?: ScopeCompliance;
  /** The policy changed here, or is known to have changed: read it again. */
  onChanged: () => void;
}) {
  const may = useMay('prn::/', 'READ_UPDATE');
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  return (
    <Section title="Policy" id="policy-heading">
      {hasPolicy(policy) ? (
        <PolicyFacts scope={scope} policy={policy} compliance={compliance} />
      ) : (
        <p>No policy: no limits or rules.</p>
      )}
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
