/** 常见问题 (/help/faq): carriers, sender numbers, signatures, delivery time, stability, integration. */
import { Anchor, Card, Col, Collapse, Row, Typography } from 'antd';
import { FAQ } from './faq';
import { useScreen } from '@/layout/screens';

export default function FaqPage() {
  const faqScreen = useScreen();
  return (
    <Card title={faqScreen.label}>
      <Row gutter={24}>
        <Col xs={24} lg={19}>
          {FAQ.map((g) => (
            <section key={g.key} id={`faq-${g.key}`} style={{ marginBottom: 24 }}>
              <Typography.Title level={5}>{g.title}</Typography.Title>
              <Collapse
                defaultActiveKey={g === FAQ[0] ? ['0'] : []}
                items={g.items.map((it, i) => ({
                  key: String(i),
                  label: it.q,
                  children: it.a.map((p, j) => (
                    <Typography.Paragraph key={j} style={{ marginBottom: j === it.a.length - 1 ? 0 : undefined }}>
                      {p}
                    </Typography.Paragraph>
                  )),
                }))}
              />
            </section>
          ))}
        </Col>
        <Col xs={0} lg={5}>
          <Anchor offsetTop={80} items={FAQ.map((g) => ({ key: g.key, href: `#faq-${g.key}`, title: g.title }))} />
        </Col>
      </Row>
    </Card>
  );
}
