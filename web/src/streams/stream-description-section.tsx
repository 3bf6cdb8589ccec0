import type { StreamDescription } from '../api/types';
import { Section } from '../components/screen';
import { formatKeyRange, formatTime } from '../format/format';
import { Link } from '../routing/router';
import { pathOf } from '../routing/routes';
import { hiddenGroupsSummary } from './stream-summary';

/** What describing the stream answers: state, epoch, active segments, the groups reading it. */
export function StreamDescriptionSection({ description }: { description: StreamDescription }) {
  const { readerGroups, hiddenReaderGroups = 0 } = description;
  const hidden = hiddenGroupsSummary(readerGroups.length, hiddenReaderGroups);
  return (
    <Section title="Description" id="description-heading">
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <span class={`state ${description.state}`}>{description.state}</span>
        </dd>
        <dt>Current epoch</dt>
        <dd>{description.currentEpoch}</dd>
        <dt>Created</dt>
        <dd>{formatTime(description.createdAt)}</dd>
        <dt>Last changed</dt>
        <dd>{formatTime(description.updatedAt)}</dd>
        <dt>Last scaled</dt>
        <dd>{description.lastScaledAt ? formatTime(description.lastScaledAt) : 'never'}</dd>
        <dt>Active segments</dt>
        <dd>
          {description.activeSegments.length}:{' '}
          {description.activeSegments
            .map((s) => `${s.number} ${formatKeyRange(s.keyStart, s.keyEnd)}`)
            .join(', ')}
        </dd>
        <dt>Read by</dt>
        <dd>
          {readerGroups.length === 0 && hiddenReaderGroups === 0 && 'no reader group'}
          {readerGroups.map((scoped, index) => {
            const [scope, group] = scoped.split('/');
            return (
              <span key={scoped}>
                {index > 0 && ', '}
                <Link href={pathOf({ screen: 'readerGroup', scope, group })}>{scoped}</Link>
              </span>
            );
          })}
          {hidden && `${readerGroups.length > 0 ? ' ' : ''}${hidden}`}
        </dd>
      </dl>
    </Section>
  );
}
