import type { enPages } from '../en/pages.js';

export const frPages: Record<keyof typeof enPages, string> = {
  overview: "Vue d'ensemble",
  overviewOf: "Vue d'ensemble : {{tiers}}",
  panelMoved: 'Les évolutions',
  overviewHeading: 'Vue d’ensemble des risques mondiaux',
  notFound: 'Page introuvable',
  noPageAt: 'Il n’y a pas de page à cette adresse :',
  backToOverview: "Retour à la vue d'ensemble",
  wentWrong: 'Un problème est survenu',
  couldNotShow: 'Cette page n’a pas pu être affichée',
  unknownError: 'Erreur inconnue',
  reload: 'Recharger la page',
  goToOverview: "Aller à la vue d'ensemble",
};
