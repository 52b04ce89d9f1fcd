import type { Catalogue } from './en.js';

export const es: Catalogue = {
  shell: {
    brand: 'Panel de riesgo global',
    navLabel: 'Exposición, listas de seguimiento, eventos y alertas',
    exposure: 'Exposición',
    events: 'Eventos',
    watchlists: 'Listas de seguimiento',
    alerts: 'Alertas',
    unread: 'sin leer',
    noneUnread: '(ninguna sin leer)',
    auditLog: 'Registro de auditoría',
    loading: 'Cargando…',
    skipToContent: 'Ir al contenido',
    footerData: 'Datos: API Global Risk Index a través del servidor de este panel',
    footerDemo: ' (datos de demostración generados localmente)',
    footerTimes: 'Horas en UTC.',
    footerShapes: 'Formas: Natural Earth.',
    language: 'Idioma',
    demoBadge: 'Datos de demostración',
    demoBadgeTitle:
      'Las cifras vienen del servicio de demostración integrado, no de la API Global Risk Index',
    dismiss: 'Cerrar la notificación',
    signedInAs: 'Sesión iniciada como',
    signOut: 'Cerrar sesión',
  },
  status: {
    label: 'Estado del servicio',
    dataService: 'Servicio de datos',
    apiQuota: 'Cuota de la API',
    ok: 'funciona con normalidad',
    degraded: 'responde con errores',
    down: 'no se puede alcanzar',
  },
  format: {
    na: 'n/d',
    justNow: 'ahora mismo',
    inUnderAMinute: 'en menos de un minuto',
    ago: 'hace {{amount}}',
    in: 'en {{amount}}',
  },
  settings: {
    language: 'Idioma',
    languageHint: 'Las páginas se abren en este idioma salvo que un enlace indique otro (?lang=).',
    browserDefault: 'El idioma del navegador',
  },
};
