import type { Catalogue } from './en.js';

export const fr: Catalogue = {
  shell: {
    brand: 'Tableau de bord des risques mondiaux',
    navLabel: 'Exposition, listes de suivi, événements et alertes',
    exposure: 'Exposition',
    events: 'Événements',
    watchlists: 'Listes de suivi',
    alerts: 'Alertes',
    unread: 'non lues',
    noneUnread: '(aucune non lue)',
    auditLog: "Journal d'audit",
    loading: 'Chargement…',
    skipToContent: 'Aller au contenu',
    footerData: 'Données : API Global Risk Index via le serveur de ce tableau de bord',
    footerDemo: ' (données de démonstration générées localement)',
    footerTimes: 'Heures en UTC.',
    footerShapes: 'Formes : Natural Earth.',
    language: 'Langue',
    demoBadge: 'Données de démo',
    demoBadgeTitle:
      "Les chiffres viennent du service de démonstration intégré, pas de l'API Global Risk Index",
    dismiss: 'Fermer la notification',
    signedInAs: 'Connecté en tant que',
    signOut: 'Se déconnecter',
  },
  status: {
    label: 'État du service',
    dataService: 'Service de données',
    apiQuota: "Quota de l'API",
    ok: 'fonctionne normalement',
    degraded: 'répond avec des erreurs',
    down: 'injoignable',
  },
  format: {
    na: 'n.d.',
    justNow: "à l'instant",
    inUnderAMinute: "dans moins d'une minute",
    ago: 'il y a {{amount}}',
    in: 'dans {{amount}}',
  },
  settings: {
    language: 'Langue',
    languageHint:
      "Les pages s'ouvrent dans cette langue, sauf si un lien en nomme une autre (?lang=).",
    browserDefault: 'La langue du navigateur',
  },
};
