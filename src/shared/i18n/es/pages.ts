import type { enPages } from '../en/pages.js';

export const esPages: Record<keyof typeof enPages, string> = {
  overview: 'Resumen',
  overviewOf: 'Resumen: {{tiers}}',
  panelMoved: 'Los cambios',
  overviewHeading: 'Resumen del riesgo global',
  notFound: 'Página no encontrada',
  noPageAt: 'No hay ninguna página en esta dirección:',
  backToOverview: 'Volver al resumen',
  wentWrong: 'Algo salió mal',
  couldNotShow: 'No se pudo mostrar esta página',
  unknownError: 'Error desconocido',
  reload: 'Recargar la página',
  goToOverview: 'Ir al resumen',
};
