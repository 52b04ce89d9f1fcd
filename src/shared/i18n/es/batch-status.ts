import type { enBatchStatus } from '../en/batch-status.js';

export const esBatchStatus: Record<keyof typeof enBatchStatus, string> = {
  answeringErrors: 'El servicio de datos responde con errores.',
  unreadable: 'El servicio de datos envía respuestas que no se pueden leer.',
  unreachable: 'No se puede alcanzar el servicio de datos.',
  showingLast: 'Se muestran los últimos datos recibidos, del {{date}} ({{relative}}).',
  noDataYet: 'Aún no se ha recibido ningún dato.',
  overdue: 'El lote de las {{time}} va con retraso.',
  overdueSince:
    'El lote de las {{time}} va con retraso (previsto {{due}}); los datos mostrados son del {{date}} ({{relative}}).',
  storeFailing:
    'El panel no puede guardar en su almacén: los lotes nuevos y los cambios no se conservan hasta que se arregle.',
  quotaUsedUp:
    'La cuota horaria de consultas al servicio de datos está agotada hasta las {{time}} ({{relative}}). Las páginas ya cargadas siguen disponibles; puede que los países nuevos no se carguen hasta entonces.',
  updated: 'Actualizado al lote de las {{time}}.',
  updatedWithChanges_one: 'Actualizado al lote de las {{time}}: {{count}} cambio de nivel.',
  updatedWithChanges_other: 'Actualizado al lote de las {{time}}: {{count}} cambios de nivel.',
};
