import { toStreamConfiguration } from '../streams/stream-configuration';
import { toStreamProperty } from '../streams/stream.mapper';
import type { StreamPropertyDto } from '../streams/dto/stream-property.dto';
import type { DesiredStream } from './desired-state';
import type { StreamConfigurationView } from './current-state';

/** A stream's configuration as `GET` stream shows it, without the names; absent fields left out. */
export function configurationView(property: StreamPropertyDto): StreamConfigurationView {
  const view: Partial<StreamPropertyDto> = { ...property };
  delete view.scopeName;
  delete view.streamName;
  return JSON.parse(JSON.stringify(view)) as StreamConfigurationView;
}

/**
 * A listed stream's configuration as `GET` stream would show it once created: the defaults of
 * create applied, then rendered by the service's own mapper.
 */
export function renderDesiredStream(
  scopeName: string,
  stream: DesiredStream,
): StreamConfigurationView {
  return configurationView(
    toStreamProperty({
      scopeName,
      name: stream.streamName,
      state: 'ACTIVE',
      configuration: toStreamConfiguration(stream),
    }),
  );
}
