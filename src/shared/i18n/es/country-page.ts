import type { enCountryPage } from '../en/country-page.js';

export const esCountryPage: Record<keyof typeof enCountryPage, string> = {
  notThreeLetters: '«{{code}}» no es un código ISO 3166 de tres letras como UKR o BRA.',
  notACode: '«{{iso}}» no es un código de país',
  notACodeText:
    '{{iso}} no es un código de país ISO 3166, y los datos no tienen ningún país con ese código. Revise el enlace o busque el nombre del país en el resumen.',
  noCurrentData: '{{name}}: sin datos actuales',
  notInData:
    '{{name}} no está en los datos actuales (riesgo de base bajo o sin noticias recientes).',
  serviceDown:
    'El servicio de datos no está disponible ahora mismo y {{name}} no se había cargado antes. Esperando la respuesta del servidor del panel…',
  loading: 'Cargando {{name}}',
  dataOf: 'Los datos de {{name}}',
  panelTrend: 'La tendencia',
  panelCategoryHistory: 'El historial por categoría',
  panelArchive: 'El archivo de eventos',
  panelSummary: 'El resumen del país',
  panelLocator: 'El mapa de ubicación',
  panelCategories: 'El gráfico de categorías',
  panelEvents: 'La lista de eventos',
  panelSites: 'Nuestros sitios aquí',
  lowConfidence:
    'El riesgo es alto pero la confianza es baja ({{confidence}} de 100): la puntuación se basa en fuentes escasas o débiles. Lea los eventos de abajo antes de actuar.',
  teamAbove: 'El riesgo de arriba es el índice del equipo',
  teamAboveNamed: 'El riesgo de arriba es el índice del equipo «{{name}}»',
  tierIsOverride: '; su nivel es nuestro ajuste',
  insteadOf: 'en lugar del nivel del proveedor',
  because: ', porque «{{reason}}».',
  setBy: 'Fijado por {{who}}; termina el',
};
