import type { enBatchStatus } from '../en/batch-status.js';

export const frBatchStatus: Record<keyof typeof enBatchStatus, string> = {
  answeringErrors: 'Le service de données répond avec des erreurs.',
  unreadable: 'Le service de données envoie des réponses illisibles.',
  unreachable: 'Le service de données est injoignable.',
  showingLast: 'Affichage des dernières données reçues, du {{date}} ({{relative}}).',
  noDataYet: 'Aucune donnée n’a encore été reçue.',
  overdue: 'Le lot de {{time}} est en retard.',
  overdueSince:
    'Le lot de {{time}} est en retard (prévu {{due}}) ; les données affichées sont du {{date}} ({{relative}}).',
  storeFailing:
    'Le tableau de bord ne peut pas enregistrer dans sa base : les nouveaux lots et les modifications ne sont pas conservés tant que ce n’est pas réparé.',
  quotaUsedUp:
    'Le quota horaire de requêtes au service de données est épuisé jusqu’à {{time}} ({{relative}}). Les pages déjà chargées restent disponibles ; de nouveaux pays risquent de ne pas se charger d’ici là.',
  updated: 'Mis à jour avec le lot de {{time}}.',
  updatedWithChanges_one: 'Mis à jour avec le lot de {{time}} : {{count}} changement de niveau.',
  updatedWithChanges_other: 'Mis à jour avec le lot de {{time}} : {{count}} changements de niveau.',
};
