import type { enCountryPage } from '../en/country-page.js';

export const frCountryPage: Record<keyof typeof enCountryPage, string> = {
  notThreeLetters: '« {{code}} » n’est pas un code ISO 3166 à trois lettres comme UKR ou BRA.',
  notACode: '« {{iso}} » n’est pas un code pays',
  notACodeText:
    '{{iso}} n’est pas un code pays ISO 3166, et les données n’ont aucun pays sous ce code. Vérifiez le lien, ou cherchez le nom du pays depuis la vue d’ensemble.',
  noCurrentData: '{{name}} : pas de données actuelles',
  notInData:
    '{{name}} ne figure pas dans les données actuelles (risque de base faible ou pas d’actualité récente).',
  serviceDown:
    'Le service de données est injoignable pour le moment, et {{name}} n’a pas encore été chargé. En attente de la réponse du serveur du tableau de bord…',
  loading: 'Chargement : {{name}}',
  dataOf: 'Les données de {{name}}',
  panelTrend: 'L’évolution',
  panelCategoryHistory: 'L’historique par catégorie',
  panelArchive: 'L’archive des événements',
  panelSummary: 'Le résumé du pays',
  panelLocator: 'La carte de situation',
  panelCategories: 'Le graphique des catégories',
  panelEvents: 'Le fil des événements',
  panelSites: 'Nos sites ici',
  lowConfidence:
    'Le risque est élevé mais la confiance est faible ({{confidence}} sur 100) : le score repose sur des sources rares ou fragiles. Lisez les événements ci-dessous avant d’agir.',
  teamAbove: 'Le risque ci-dessus est l’indice de l’équipe',
  teamAboveNamed: 'Le risque ci-dessus est l’indice de l’équipe « {{name}} »',
  tierIsOverride: ' ; son niveau est notre ajustement',
  insteadOf: 'au lieu du niveau du fournisseur',
  because: ', car « {{reason}} ».',
  setBy: 'Défini par {{who}} ; prend fin le',
};
