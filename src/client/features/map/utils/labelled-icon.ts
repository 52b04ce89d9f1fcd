import { DivIcon } from 'leaflet';

/**
 * A div icon whose element carries `data-*` attributes naming what it draws (a country's
 * `data-iso`, a site cluster's `data-site-key`): for styling, keeping focus across redraws, and
 * tests. Leaflet builds the element itself, so the attributes are set as it is created.
 */
export class LabelledIcon extends DivIcon {
  constructor(
    private readonly data: Readonly<Record<string, string>>,
    options: ConstructorParameters<typeof DivIcon>[0],
  ) {
    super(options);
  }

  override createIcon(oldIcon?: HTMLElement): HTMLElement {
    const element = super.createIcon(oldIcon);
    Object.assign(element.dataset, this.data);
    return element;
  }
}
