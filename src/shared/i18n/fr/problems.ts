import type { enProblems } from '../en/problems.js';

export const frProblems: Record<keyof typeof enProblems, string> = {
  couldNotLoad: '{{what}} : chargement impossible.',
  couldNotShow: '{{what}} : affichage impossible.',
  tryAgain: 'Réessayer',
  tryAgainAt: 'Réessayez à {{time}} ({{relative}}).',
  plainHeldBack:
    'les actualisations automatiques sont suspendues pour garder les dernières requêtes de l’heure aux pages ouvertes',
  plainBudget: 'les requêtes de l’heure au service de données sont épuisées',
  notRefreshed: 'le service de données n’a pas pu être actualisé',
  notRefreshedBecause: 'le service de données n’a pas pu être actualisé ({{reason}})',
  refreshFailed: 'la dernière actualisation a échoué ({{reason}})',
  reasonsJoin: ' ; ',
  staleFrom: 'Données anciennes : du {{date}} ({{relative}}).',
  staleSince: 'Données anciennes depuis le {{date}} ({{relative}}) :',
  lastFetched: '{{cause}} ; dernière récupération le {{date}} ({{relative}}).',
  causeOnly: '{{cause}}.',
  lastGood: 'Affichage des dernières données valides.',
  methodChanged: 'La méthode du fournisseur est passée de {{from}} à {{to}} le {{date}}',
  notComparableLead: 'Non comparable : ',
  notComparable_one: '{{changes}} : les scores ne sont pas comparables de part et d’autre.',
  notComparable_other:
    '{{changes}} : les scores ne sont pas comparables de part et d’autre de ces changements.',
  dataOfBatch: 'Données du lot du {{date}}',
  notEnoughHistory: '{{label}} : historique insuffisant',
  sparklineRange: '{{label}}, de {{min}} à {{max}}',
  couldNotRefresh:
    'Impossible d’actualiser {{what}} : {{message}}. Les données affichées sont conservées et marquées comme anciennes.',
  theData: 'les données',
  offlineBatch: 'Hors ligne : affichage du lot du {{time}}.',
  offlineNotKept:
    'Hors ligne : les données de cette page n’ont pas été conservées sur cet appareil.',
  offlineNewer:
    'Des données plus récentes existent peut-être ; la page se met à jour au retour du réseau.',
  status400: 'La requête n’était pas valide',
  status404: 'Introuvable',
  status429: 'Trop de requêtes',
  status500: 'Le serveur du tableau de bord a échoué',
  status502: 'Le service de données a envoyé une réponse inutilisable',
  status503: 'Le service de données est indisponible',
  status504: 'Le service de données n’a pas répondu à temps',
  statusOther: 'Le serveur a répondu avec le statut {{status}}',
  unreachable: 'Le serveur du tableau de bord est injoignable',
  notJson: 'Le serveur du tableau de bord a envoyé une réponse qui n’est pas du JSON',
  unexpectedShape: 'Le serveur du tableau de bord a envoyé des données d’une forme inattendue',
};
