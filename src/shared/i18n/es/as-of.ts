import type { enAsOf } from '../en/as-of.js';

export const esAsOf: Record<keyof typeof enAsOf, string> = {
  shown: 'Lote mostrado',
  viewing: 'Viendo el lote del {{date}}',
  notLatest: ', no los últimos datos.',
  noneAtOrBefore: 'No se registró ningún lote el {{date}} o antes.',
  viewingPast: 'Viendo un lote pasado ({{date}}).',
  backToLatest: 'Volver a lo más reciente',
  openPast: 'Abrir un lote pasado',
  dayLabel: 'Lote de un día (UTC)',
  open: 'Abrir',
  weekAgo: 'Hace una semana',
  monthAgo: 'Hace un mes',
  loadingBatches: 'Cargando los lotes registrados…',
  batches: 'Los lotes registrados',
  noneYet: 'Aún no se ha registrado ningún lote.',
  batch: 'Lote',
  sliderValue: '{{date}}, lote {{n}} de {{total}}',
  loadingOlder: 'Cargando lotes anteriores…',
  older: 'Lotes anteriores',
};
