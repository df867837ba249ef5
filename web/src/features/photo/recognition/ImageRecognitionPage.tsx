import { useTranslation } from 'react-i18next';
import { useId, useState, type ChangeEvent } from 'react';
import { ImageIcon } from '../../../components/icons';
import { Spinner } from '../../../components/Spinner';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { imageFileToDataUrl } from '../../../lib/imageFile';
import { usePageTitle } from '../../../lib/usePageTitle';
import { withAnalysisDefaults } from './analysis';
import { useAnalyzeImageMutation, useGenerateItemMutation, type GeneratedItem, type ProductAnalysis } from './api';
import '../../../components/filePicker.css';
import './recognition.css';

/** The analysis as the result text shows it, and as the generation step reads it. */
export function analysisText(a: ProductAnalysis): string {
  const lines = [
    `Name: ${a.name}`,
    `Description: ${a.description}`,
    `Category: ${a.category}`,
    `Approximate price: ${a.approximatePrice || 'unknown'}`,
    `Search: ${a.searchQuery}`,
  ];
  if (a.features.length) lines.push('Features:', ...a.features.map((f) => `- ${f}`));
  return lines.join('\n');
}

/** The wishlist entry as JSON (docs/spec.md, section 3 'AI item result', test page fields). */
export function entryJson(item: GeneratedItem): string {
  const entry = {
    name: item.name || 'Wishlist Item',
    description: item.description || 'No description available',
    price: item.price || '$0.00',
    estimatedPrice: item.estimatedPrice || item.price || '$0.00',
    category: item.category || 'other',
  };
  return JSON.stringify(entry, null, 2);
}

/** /image-recognition: the AI image recognition test page (docs/spec.md, section 2). */
export default function ImageRecognitionPage() {
  const { t } = useTranslation('photo');
  usePageTitle(t('imageTest.title'));
  const toast = useToast();
  const ids = { file: useId(), prompt: useId(), json: useId() };
  const [image, setImage] = useState<string | null>(null);
  const [prompt, setPrompt] = useState('');
  const [analysis, setAnalysis] = useState<ProductAnalysis | null>(null);
  const [entry, setEntry] = useState('');
  const [error, setError] = useState('');
  const [analyze, { isLoading: analyzing }] = useAnalyzeImageMutation();
  const [generate, { isLoading: generating }] = useGenerateItemMutation();

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setError('');
    setAnalysis(null);
    setEntry('');
    if (!file.type.startsWith('image/')) {
      setImage(null);
      setError(t('common.notImage'));
      event.target.value = '';
      return;
    }
    try {
      setImage(await imageFileToDataUrl(file));
    } catch {
      setImage(null);
      setError(t('common.readFailed'));
    }
  }

  async function onAnalyze() {
    setError('');
    if (!image) {
      setError(t('imageTest.selectFirst'));
      return;
    }
    setEntry('');
    try {
      const result = withAnalysisDefaults(await analyze({ image, prompt: prompt.trim() || undefined }).unwrap());
      setAnalysis(result);
    } catch (err) {
      setAnalysis(null);
      setError(t('imageTest.analysisFailed', { message: errorMessage(err) }));
    }
  }

  async function onGenerate() {
    setError('');
    if (!analysis) {
      setError(t('imageTest.analyzeFirst'));
      return;
    }
    try {
      const item = await generate({ prompt: analysisText(analysis), mode: 'item' }).unwrap();
      setEntry(entryJson(item));
    } catch (err) {
      setError(t('imageTest.generationFailed', { message: errorMessage(err) }));
    }
  }

  async function onCopy() {
    try {
      await navigator.clipboard.writeText(entry);
      toast({ title: t('imageTest.copied'), description: t('imageTest.copiedText') });
    } catch {
      toast({ title: t('common.copyFailed'), description: t('imageTest.copyFailedText'), variant: 'destructive' });
    }
  }

  return (
    <section className="page page--narrow" aria-labelledby="recognition-title">
      <h1 id="recognition-title" className="page__title">
        {t('imageTest.title')}
      </h1>
      <p className="muted">{t('imageTest.intro')}</p>

      <div className="card">
        <div className="file-picker">
          <input id={ids.file} type="file" accept="image/*" className="file-picker__input" onChange={(e) => void onFile(e)} />
          <label htmlFor={ids.file} className="button button--outline button--block">
            <ImageIcon size={18} /> {t('imageTest.upload')}
          </label>
        </div>
        {image && <img className="image-test__preview" src={image} alt={t('imageTest.preview')} />}

        <label className="field__label" htmlFor={ids.prompt}>
          {t('imageTest.prompt')} <span className="field__optional">{t('common:field.optional')}</span>
        </label>
        <textarea
          id={ids.prompt}
          className="textarea"
          rows={2}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          placeholder={t('imageTest.promptPlaceholder')}
          maxLength={2000}
        />
        <button type="button" className="button button--primary" onClick={() => void onAnalyze()} disabled={analyzing} aria-busy={analyzing}>
          {analyzing && <Spinner size="small" label={t('recognition.analyzing')} />} {analyzing ? t('recognition.analyzingText') : t('recognition.analyze')}
        </button>
        {error && (
          <p className="image-test__error" role="alert">
            {error}
          </p>
        )}
      </div>

      {analysis && (
        <div className="card" data-testid="analysis-text">
          <h2 className="section-title">{t('imageTest.result')}</h2>
          <pre className="image-test__result">{analysisText(analysis)}</pre>
        </div>
      )}

      <div className="card">
        <button type="button" className="button button--outline" onClick={() => void onGenerate()} disabled={generating} aria-busy={generating}>
          {generating && <Spinner size="small" label={t('imageTest.generating')} />} {generating ? t('imageTest.generatingText') : t('imageTest.generate')}
        </button>
        {entry && (
          <>
            <label className="field__label" htmlFor={ids.json}>
              {t('imageTest.entry')}
            </label>
            <textarea id={ids.json} className="textarea image-test__json" value={entry} readOnly rows={8} />
            <button type="button" className="button button--primary" onClick={() => void onCopy()}>
              {t('imageTest.copy')}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
